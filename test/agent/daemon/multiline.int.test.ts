// Multi-line events end to end, with the real agent (dist/) and a sandbox in its own process: a Java
// stack trace appended to a tailed file pages one SMS with the first line's message, its mail
// carries the frames, the same failure again joins the incident; and an agent killed (SIGKILL) in
// the middle of an event delivers it whole, once, after its restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import {
  createWorkspace,
  messagingYaml,
  metric,
  records,
  recordsWhen,
  root,
  smsTexts,
  spawnAgent,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
  type SandboxRecord,
  type Workspace,
} from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const logLine = (level: string, logger: string, msg: string): string =>
  `2026-03-14 09:12:02,003 ${level} [http-nio-8080-exec-7] ${logger} - ${msg}\n`

/** A trace under an ERROR line: the first `split` lines, then the rest. */
function orderTrace(order: number): string[] {
  return [
    logLine('ERROR', 'c.a.orders.OrderService', `Failed to load order ${order}`),
    `java.lang.IllegalStateException: Order ${order} has no customer\n`,
    '\tat com.acme.orders.OrderService.load(OrderService.java:142)\n',
    '\tat com.acme.orders.OrderController.get(OrderController.java:58)\n',
    '\tat java.base/java.lang.Thread.run(Thread.java:1583)\n',
  ]
}

function invoiceTrace(): string[] {
  return [
    logLine('ERROR', 'c.a.billing.InvoiceListener', 'Could not publish invoice 5521'),
    'org.springframework.kafka.KafkaException: Send failed\n',
    '\tat org.springframework.kafka.core.KafkaTemplate.doSend(KafkaTemplate.java:800)\n',
    '\tat com.acme.billing.InvoiceListener.onMessage(InvoiceListener.java:64)\n',
    'Caused by: org.apache.kafka.common.errors.TimeoutException: Topic invoices not present in metadata\n',
    '\tat org.apache.kafka.clients.producer.KafkaProducer.waitOnMetadata(KafkaProducer.java:1157)\n',
    '\t... 12 more\n',
  ]
}

const mails = (all: readonly SandboxRecord[], about: string): string[] =>
  all
    .filter((r) => r.kind === 'mail')
    .map((r) => JSON.stringify(r.record))
    .filter((text) => text.includes(about))

describe('multi-line events in the running agent', () => {
  let ws: Workspace
  let sandbox: SandboxProcess
  let agent: RunningAgent | undefined
  let app: string

  async function crash(): Promise<void> {
    await agent?.kill('SIGKILL')
    agent = undefined
  }

  beforeAll(async () => {
    ws = createWorkspace()
    app = join(ws.logs, 'app.log')
    sandbox = await startSandboxProcess()
    // A long timeout: each event here is ended by the line after it, never by the clock.
    ws.writeConfig(`${messagingYaml(sandbox.api)}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
    start_at: beginning
    format: text
    multiline: { preset: java, timeout: 30s }
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
  ops-mail: { type: mail, from: agent@example.com, to: ops@example.com }
rules:
  - name: errors
    level: error
    notify: [oncall-sms, ops-mail]
metrics: { listen: 127.0.0.1:0 }
`)
    mkdirSync(ws.logs, { recursive: true })
    appendFileSync(app, logLine('INFO', 'c.a.Application', 'started'))
    agent = await startAgentProcess(ws.config)
  })

  afterAll(async () => {
    await crash()
    await sandbox?.close()
    ws?.remove()
  })

  it('pages one SMS for a stack trace, with the frames in the mail; the same failure again joins its incident', async () => {
    const running = agent as RunningAgent
    appendFileSync(
      app,
      [...orderTrace(81724), logLine('INFO', 'c.a.orders.OrderController', 'GET /health 200')].join(''),
    )
    const all = await recordsWhen(
      sandbox.api.baseUrl,
      'the SMS and the mail of the trace',
      (r) => smsTexts(r).length === 1 && mails(r, 'OrderService.java:142').length === 1,
    )
    const [sms] = smsTexts(all)
    expect(sms).toContain('Failed to load order 81724')
    expect(sms).not.toContain('2026-03-14')
    expect(sms).not.toContain('OrderService.java')
    expect(mails(all, 'Thread.java:1583')).toHaveLength(1)

    appendFileSync(
      app,
      [...orderTrace(90211), logLine('INFO', 'c.a.orders.OrderController', 'GET /health 200')].join(''),
    )
    await pollUntil('the second trace matched', async () =>
      (await metric(running.metricsUrl, 'logx_agent_matches_total')) === 2 ? true : undefined,
    )
    expect(await metric(running.metricsUrl, 'logx_agent_incidents_open')).toBe(1)
    expect(smsTexts(await records(sandbox.api.baseUrl))).toHaveLength(1)
  })

  it('an agent killed in the middle of an event delivers it whole, once, after its restart', async () => {
    const running = agent as RunningAgent
    const trace = invoiceTrace()
    const before = await metric(running.metricsUrl, 'logx_agent_lines_read_total')
    appendFileSync(app, trace.slice(0, 3).join(''))
    await pollUntil('the first half of the trace read', async () =>
      (await metric(running.metricsUrl, 'logx_agent_lines_read_total')) >= before + 3 ? true : undefined,
    )
    await crash()
    appendFileSync(app, [...trace.slice(3), logLine('INFO', 'c.a.orders.OrderController', 'GET /health 200')].join(''))
    agent = await startAgentProcess(ws.config)
    const all = await recordsWhen(
      sandbox.api.baseUrl,
      'the SMS and the mail of the invoice trace',
      (r) =>
        smsTexts(r).some((t) => t.includes('Could not publish invoice')) &&
        mails(r, 'Could not publish invoice').length > 0,
    )
    // The mail carries both halves: the frames read before the crash and those written after it.
    const mail = mails(all, 'Could not publish invoice')
    expect(mail).toHaveLength(1)
    expect(mail[0]).toContain('KafkaTemplate.java:800')
    expect(mail[0]).toContain('KafkaProducer.java:1157')
    // Exactly once: the file is read and committed to its end, and still one SMS came of it.
    await pollUntil('a checkpoint at the end of app.log', () => {
      try {
        const saved = JSON.parse(readFileSync(join(ws.state, 'checkpoints', 'app.json'), 'utf8')) as {
          files: { offset: number; path: string }[]
        }
        return saved.files.some((f) => f.path === app && f.offset === statSync(app).size) ? true : undefined
      } catch {
        return undefined
      }
    })
    const after = await records(sandbox.api.baseUrl)
    expect(smsTexts(after).filter((t) => t.includes('Could not publish invoice'))).toHaveLength(1)
    expect(mails(after, 'Could not publish invoice')).toHaveLength(1)
    expect(smsTexts(after)).toHaveLength(2)
  })

  it("test-rule reads a file with its source's multi-line rule and shows whole events", async () => {
    await crash()
    const file = join(ws.logs, 'java-fixture.log')
    copyFileSync(join(root, 'test/fixtures/multiline/java.log'), file)
    const run = spawnAgent(['test-rule', ws.config, file, '--json'])
    expect(await run.exited).toBe(0)
    const report = JSON.parse(run.output()) as {
      lines: number
      matches: { line: number; msg: string; more?: string[] }[]
    }
    expect(report.lines).toBe(28)
    // Two events, numbered by their first lines; the `Caused by: ... ERROR: relation` line is inside the first.
    expect(report.matches.map((m) => [m.line, m.msg])).toEqual([
      [2, 'Failed to load order 81724'],
      [23, 'Could not publish invoice 5521'],
    ])
    expect(report.matches[0]?.more).toHaveLength(18)
    expect(report.matches[0]?.more?.at(-1)).toBe('\t\t... 43 more')
  })
})
