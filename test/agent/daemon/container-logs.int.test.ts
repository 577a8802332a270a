// Container logs end to end, through the built agent: a CRI file under the kubelet's
// /var/log/pods/ layout and a Docker json-file, each with an error line the runtime split in parts.
// Each pages one SMS with the whole message, and a rule matching `kubernetes.namespace` (a field
// the file's path gives every line) pages only for that namespace.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  createWorkspace,
  messagingYaml,
  recordsWhen,
  startAgentProcess,
  type RunningAgent,
  type SandboxRecord,
  type Workspace,
} from './helpers'

const PAYMENTS_UID = '4f1c1a2e-58b6-4c1b-9a57-0f8d6f0e3c11'
const SHOP_UID = '9b2d7e10-3c4f-4a5b-8c6d-7e8f9a0b1c2d'
const CONTAINER_ID = '3c9b7f2e1a0d4c5b6a798877665544332211ffeeddccbbaa0099887766554433'
const TIME = '2024-05-01T10:00:00.123456789Z'
const PAYMENTS_SMS = '919800000001'
const OTHERS_SMS = '919800000002'

const smsTo = (all: readonly SandboxRecord[], phone: string): string[] =>
  all
    .filter((r) => r.kind === 'sms' && (r.record.numbers as unknown[]).map(String).includes(phone))
    .map((r) => String(r.record.sms))

/** A pino error line (level 50) whose `msg` comes first, padded with a stack to about `bytes`. */
function pinoError(msg: string, bytes: number): string {
  const stack = `Error: ${msg}\n${'    at charge (/app/src/payments/charge.js:42:17)\n'.repeat(Math.ceil(bytes / 50))}`
  return JSON.stringify({
    level: 50,
    time: 1714557600123,
    pid: 1,
    hostname: 'node-1',
    msg,
    err: { type: 'Error', message: msg, stack },
  })
}

/** The CRI lines of `line` cut into `parts` P/F parts (a cut may fall anywhere: the runtime counts bytes). */
function criLines(line: string, stream: string, parts: number): string {
  const size = Math.ceil(line.length / parts)
  let out = ''
  for (let i = 0; i < parts; i++)
    out += `${TIME} ${stream} ${i === parts - 1 ? 'F' : 'P'} ${line.slice(i * size, (i + 1) * size)}\n`
  return out
}

/** Docker's json-file entries of `line`, split at 16 KiB as Docker does. */
function dockerLines(line: string): string {
  const text = `${line}\n`
  let out = ''
  for (let at = 0; at < text.length; at += 16 * 1024)
    out += `${JSON.stringify({ log: text.slice(at, at + 16 * 1024), stream: 'stderr', time: TIME })}\n`
  return out
}

describe('container logs', () => {
  let ws: Workspace | undefined
  let agent: RunningAgent | undefined

  afterAll(async () => {
    await agent?.kill('SIGKILL')
    ws?.remove()
  })

  it('page once per split error line, and match on the kubernetes fields of the path', async () => {
    ws = createWorkspace()
    const payments = join(ws.dir, 'var/log/pods', `payments_api-6f7c9d8b5-x2x9k_${PAYMENTS_UID}`, 'api', '0.log')
    const shop = join(ws.dir, 'var/log/pods', `shop_web-5b8d7c6f4-qw8rt_${SHOP_UID}`, 'web', '0.log')
    const docker = join(ws.dir, 'var/lib/docker/containers', CONTAINER_ID, `${CONTAINER_ID}-json.log`)
    for (const file of [payments, shop, docker]) {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, '')
    }
    ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: pods
    paths: ${ws.dir}/var/log/pods/*/*/*.log
    format: cri
    start_at: beginning
  - name: docker
    paths: ${ws.dir}/var/lib/docker/containers/*/*-json.log
    format: docker
    start_at: beginning
channels:
  payments-sms: { type: sms, numbers: [${PAYMENTS_SMS}] }
  others-sms: { type: sms, numbers: [${OTHERS_SMS}] }
rules:
  - name: payments
    source: pods
    match: { kubernetes.namespace: payments }
    title: "{{kubernetes.namespace}}/{{kubernetes.container}} {{msg}}"
    notify: payments-sms
  - name: others
    notify: others-sms
metrics: { listen: 127.0.0.1:0 }
`)
    agent = await startAgentProcess(ws.config)

    // An info line, then an error line cut in three parts, then a plain-text line.
    appendFileSync(payments, criLines(JSON.stringify({ level: 30, msg: 'charging order 1234' }), 'stdout', 1))
    appendFileSync(payments, criLines(pinoError('card declined for order 1234', 40 * 1024), 'stderr', 3))
    appendFileSync(shop, criLines(pinoError('cart service unavailable', 100), 'stderr', 2))
    appendFileSync(docker, `${JSON.stringify({ log: 'worker started\n', stream: 'stdout', time: TIME })}\n`)
    appendFileSync(docker, dockerLines(pinoError('queue consumer crashed', 40 * 1024)))

    const running = agent
    const all = await recordsWhen(
      running.baseUrl,
      'the three errors',
      (records) => smsTo(records, PAYMENTS_SMS).length >= 1 && smsTo(records, OTHERS_SMS).length >= 2,
    ).catch((err: unknown) => {
      throw new Error(
        `${(err as Error).message}\n${running.output().slice(0, 4000)}\n${running.errors().slice(0, 2000)}`,
      )
    })

    const paymentsSms = smsTo(all, PAYMENTS_SMS)
    expect(paymentsSms).toHaveLength(1)
    expect(paymentsSms[0]).toContain('payments/api card declined for order 1234')
    const othersSms = smsTo(all, OTHERS_SMS)
    expect(othersSms).toHaveLength(2)
    expect(othersSms.some((text) => text.includes('cart service unavailable'))).toBe(true)
    expect(othersSms.some((text) => text.includes('queue consumer crashed'))).toBe(true)
    // The parts were joined: no SMS for a fragment of a line.
    expect([...paymentsSms, ...othersSms].join('\n')).not.toContain('charge.js')
  })
})
