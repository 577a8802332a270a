// Drill: secrets. The API key (from ${VAR}), a wrong API key, the activity token (from a *_file), the
// lead webhook's account and values at redacted paths are planted in log lines and config; the agent
// is driven through its error paths (a base URL carrying credentials through ${VAR}, which validate
// and run refuse; 401 from a wrong key and dead letters, an invalid reload whose bad values come from
// the secret variable, an unreachable API whose base URL has the key pasted into its path), then
// through a good run. Then
// everything it wrote or served is scanned: its stdout/stderr, `validate` and `test-rule` output,
// /metrics and /health, every sandbox record and the sandbox's data dir, every file of the state
// dir, and the messaging client's errors. events = places scanned, lost = leaks found.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { afterEach, expect, test } from 'vitest'
import { createMessagingClient } from '../../agent/messaging'
import {
  createWorkspace,
  metric,
  records,
  spawnAgent,
  startAgentProcess,
  type RunningAgent,
  type Workspace,
} from '../agent/daemon/helpers'
import { recordDrill } from './lib/report'
import { pollUntil } from '../helpers/poll-until'

const KEY = 'sk-live-DRILL-7f3a9c2e51'
const WRONG_KEY = 'sk-wrong-DRILL-0c9e11d4'
const TOKEN = 'tok-DRILL-b81d40aa93'
const WRONG_TOKEN = 'tok-wrong-DRILL-5e6f7a'
const LEAD_ACCOUNT = 'acct-DRILL-lead-77'
const PASSWORD = 'pw-DRILL-hunter2-x9'
const AUTHZ = 'DRILL-authz-5521e'
const CARD = '4111-DRILL-1111-0042'
const URL_USER = 'urluser-DRILL-3b7'
const URL_PASSWORD = 'urlpw-DRILL-c41d9'
const URL_KEY = 'urlkey-DRILL-9e02f'
/** A legal base URL's host: needle-free, planted so the scan can tell the URL was printed. */
const PLANTED_HOST = 'drill-api-host.localhost'

// Nothing scanned may hold any of these. A log line can only be scrubbed of a key the agent is
// configured with, so each phase plants the key it runs with (the wrong one, then the live one).
const NEEDLES = [
  KEY,
  WRONG_KEY,
  TOKEN,
  WRONG_TOKEN,
  LEAD_ACCOUNT,
  PASSWORD,
  AUTHZ,
  CARD,
  URL_USER,
  URL_PASSWORD,
  URL_KEY,
]

interface Leak {
  place: string
  needle: string
  context: string
}

function scan(place: string, text: string, needles: readonly string[], leaks: Leak[]): void {
  for (const needle of needles) {
    for (const form of new Set([needle, encodeURIComponent(needle), Buffer.from(needle).toString('base64')])) {
      const at = text.indexOf(form)
      if (at !== -1) leaks.push({ place, needle, context: text.slice(Math.max(0, at - 120), at + needle.length + 40) })
    }
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path))
    else out.push(path)
  }
  return out
}

let ws: Workspace | undefined
const running: { kill(signal: NodeJS.Signals): Promise<unknown> }[] = []
afterEach(async () => {
  for (const p of running.splice(0)) await p.kill('SIGKILL')
  ws?.remove()
  ws = undefined
})

test('no secret and no redacted value leaks, on any path', async ({ task }) => {
  const started = Date.now()
  ws = createWorkspace()
  const w = ws
  mkdirSync(w.logs, { recursive: true })
  const logFile = join(w.logs, 'app.log')
  writeFileSync(logFile, '')
  const sandboxData = join(w.dir, 'sandbox-data')
  const tokenFile = join(w.dir, 'activity-token')
  writeFileSync(tokenFile, `${TOKEN}\n`)

  // The sandbox in its own process, with the key, token and lead account chosen here.
  const sandbox = spawnAgent([
    'sandbox',
    '--port',
    '0',
    '--data',
    sandboxData,
    '--api-key',
    KEY,
    '--activity-token',
    TOKEN,
    '--lead-account',
    LEAD_ACCOUNT,
  ])
  running.push({
    kill: async (signal) => {
      if (sandbox.child.exitCode === null) {
        sandbox.child.kill(signal)
        await sandbox.exited
      }
    },
  })
  const info = await pollUntil('the sandbox', () => {
    const base = /base URL:\s+(\S+)/.exec(sandbox.output())?.[1]
    const lead = /lead webhook URL:\s+(\S+)/.exec(sandbox.output())?.[1]
    const activity = /activity webhook URL:\s+(\S+)/.exec(sandbox.output())?.[1]
    return base && lead && activity ? { base: base.replace(/\/$/, ''), lead, activity } : undefined
  })

  const config = (extra = ''): string =>
    [
      'messaging:',
      '  base_url: ${LOGX_DRILL_BASE}',
      '  api_key: ${LOGX_DRILL_KEY}',
      '  lead_webhook: ${LOGX_DRILL_LEAD}',
      `  activity_webhook: ${info.activity}`,
      `  activity_token_file: ${tokenFile}`,
      `state_dir: ${w.state}`,
      'sources:',
      '  - name: app',
      `    paths: [${w.logs}/*.log]`,
      '    start_at: beginning',
      'channels:',
      '  sms: { type: sms, numbers: [919800000001], template: "{{msg}} {{user.password}} {{req.headers.authorization}} {{card}}", max_length: 600 }',
      '  chat: { type: chat, numbers: ["+919800000002"], template_id: 5, variables: ["{{msg}}", "{{user.password}}", "{{card}}"] }',
      '  mail: { type: mail, from: alerts@example.com, to: ops@example.com }',
      'rules:',
      '  - name: auth',
      `    match: { user.password: /^pw-DRILL/ }`,
      '    group_wait: 1s',
      '    group_by: [seq]',
      '    incident: true',
      '  - name: rest',
      '    group_by: [seq]',
      '    incident: true',
      'redact: [user.password, req.headers.authorization, card]',
      'metrics:',
      '  listen: 127.0.0.1:0',
      extra,
    ].join('\n')
  w.writeConfig(config())

  let seq = 0
  /** Lines holding the phase's key and token, the lead webhook URL and values at redacted paths. */
  const plant = (key: string, token: string, file = logFile): void => {
    const lines: string[] = []
    for (let i = 0; i < 3; i++) {
      seq++
      lines.push(
        JSON.stringify({
          level: 50,
          seq,
          msg: `auth failed, key ${key} token ${token} hook ${info.lead}`,
          user: { name: 'ann', password: PASSWORD },
          req: { headers: { authorization: `Bearer ${AUTHZ}` } },
          card: CARD,
        }),
      )
      seq++
      lines.push(
        JSON.stringify({
          level: 60,
          seq,
          msg: 'crash',
          err: { type: 'Error', message: `boom ${key}`, stack: `Error: boom ${token}\n    at x (/srv/a.js:1:1)` },
          card: CARD,
          ctx: { apiKey: key, activity_token: token },
        }),
      )
    }
    appendFileSync(file, `${lines.join('\n')}\n`)
  }
  const outputs: { place: string; text: string; needles: readonly string[] }[] = []
  const envOf = (base: string, key: string) => ({
    LOGX_DRILL_BASE: base,
    LOGX_DRILL_KEY: key,
    LOGX_DRILL_LEAD: info.lead,
  })
  const serve = async (agent: RunningAgent, phase: string): Promise<void> => {
    for (const path of ['/metrics', '/health']) {
      const res = await fetch(`${agent.metricsUrl}${path}`)
      outputs.push({ place: `${phase} ${path}`, text: await res.text(), needles: NEEDLES })
    }
  }
  const stopped = async (agent: RunningAgent, phase: string, signal: NodeJS.Signals): Promise<void> => {
    await agent.kill(signal)
    outputs.push({ place: `${phase} agent stdout`, text: agent.output(), needles: NEEDLES })
    outputs.push({ place: `${phase} agent stderr`, text: agent.errors(), needles: NEEDLES })
    // The state dir as this phase left it: pending incidents and undelivered items are gone later.
    for (const file of filesUnder(w.state))
      outputs.push({
        place: `${phase} state ${file.slice(w.state.length)}`,
        text: readFileSync(file, 'latin1'),
        needles: NEEDLES,
      })
  }

  // Phase 0: a base URL that carries a user, a password and an apikey= parameter, through ${LOGX_DRILL_BASE}:
  // validate and run refuse it at the key's line, and print none of it.
  const credentialBase = `http://${URL_USER}:${URL_PASSWORD}@127.0.0.1:9/api/?apikey=${URL_KEY}`
  for (const args of [
    ['validate', w.config],
    ['run', '--config', w.config],
  ]) {
    const run = spawnAgent(args, { env: envOf(credentialBase, KEY) })
    expect(await run.exited, `${args[0]} exits 1`).toBe(1)
    expect(run.errors()).toMatch(/:2:13 messaging\.base_url: must not hold a password .*messaging\.api_key/)
    outputs.push({
      place: `${args[0]} with credentials in base_url`,
      text: run.output() + run.errors(),
      needles: NEEDLES,
    })
  }
  // A legal base URL whose host is planted and whose path holds the API key: validate prints the URL
  // (the planted host shows it did), the key masked.
  const legal = spawnAgent(['validate', w.config], { env: envOf(`http://${PLANTED_HOST}:9/${KEY}/v1/`, KEY) })
  expect(await legal.exited).toBe(0)
  expect(legal.output()).toContain(`messaging: http://${PLANTED_HOST}:9/[redacted]/v1/`)
  outputs.push({ place: 'validate with a legal base_url', text: legal.output() + legal.errors(), needles: NEEDLES })

  // Phase 1: a wrong API key and a wrong activity token. Every send and activity gets 401 and becomes a dead letter.
  writeFileSync(tokenFile, `${WRONG_TOKEN}\n`)
  const wrong = await startAgentProcess(w.config, envOf(info.base, WRONG_KEY))
  running.push(wrong)
  plant(WRONG_KEY, WRONG_TOKEN)
  await pollUntil(
    'dead letters from the 401s',
    async () => ((await metric(wrong.metricsUrl, 'logx_agent_notifications_dead_total')) >= 6 ? true : undefined),
    { timeoutMs: 30_000 },
  )
  // An invalid reload whose bad values come from the secret variable and the secret file.
  const before = wrong.errors().length
  w.writeConfig(
    config()
      .replace('  listen: 127.0.0.1:0', '  listen: ${LOGX_DRILL_KEY}')
      .replace('    start_at: beginning', '    start_at: ${LOGX_DRILL_KEY}\n    format: ${LOGX_DRILL_KEY}'),
  )
  wrong.child.kill('SIGHUP')
  await pollUntil('the reload rejected', () =>
    wrong.errors().slice(before).includes('config reload rejected') ? true : undefined,
  )
  w.writeConfig(config())
  await serve(wrong, 'wrong key')
  await stopped(wrong, 'wrong key', 'SIGINT')
  writeFileSync(tokenFile, `${TOKEN}\n`)

  // Phase 2: the API unreachable, the key pasted into its base URL's path (legal, but a secret: the banner,
  // the `notification failed` lines and the outbox's failures print the URL). Sends fail and are
  // retried; SIGKILL leaves them in the outbox.
  const closedPort = 'http://127.0.0.1:9'
  const down = await startAgentProcess(w.config, envOf(`${closedPort}/${KEY}/`, KEY))
  running.push(down)
  expect(down.output()).toContain(`messaging: ${closedPort}/[redacted]/`)
  plant(KEY, TOKEN)
  await pollUntil(
    'retried sends',
    async () => ((await metric(down.metricsUrl, 'logx_agent_notifications_retried_total')) >= 1 ? true : undefined),
    { timeoutMs: 30_000 },
  )
  await serve(down, 'api down')
  await stopped(down, 'api down', 'SIGKILL')

  // Phase 3: the right key. The outbox drains, new lines alert and are recorded on leads.
  const good = await startAgentProcess(w.config, envOf(info.base, KEY))
  running.push(good)
  plant(KEY, TOKEN)
  const all = await pollUntil(
    'every SMS of phases 2 and 3',
    async () => {
      const got = await records(info.base)
      return got.filter((r) => r.kind === 'sms').length >= 12 && got.some((r) => r.kind === 'activity')
        ? got
        : undefined
    },
    { timeoutMs: 60_000 },
  )
  await serve(good, 'good')
  await stopped(good, 'good', 'SIGINT')

  // The CLI: validate and test-rule (text and JSON) on the same config and lines.
  const env = envOf(info.base, KEY)
  const dryRunFile = join(w.dir, 'dry-run.log')
  plant(KEY, TOKEN, dryRunFile)
  for (const args of [
    ['validate', w.config],
    ['test-rule', w.config, dryRunFile],
    ['test-rule', w.config, dryRunFile, '--json'],
  ]) {
    const run = spawnAgent(args, { env })
    await run.exited
    outputs.push({ place: `${args.join(' ')} stdout+stderr`, text: run.output() + run.errors(), needles: NEEDLES })
  }

  // The messaging client's own errors: a 401 and an unreachable host, as message, JSON and inspect().
  for (const [what, baseUrl, apiKey] of [
    ['401', info.base, WRONG_KEY],
    ['unreachable', closedPort, KEY],
  ] as const) {
    const client = createMessagingClient({ baseUrl, apiKey, timeoutMs: 2000 })
    const err = await client.sendSms({ numbers: ['919800000001'], text: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    )
    await client.close()
    expect(err, what).toBeInstanceOf(Error)
    const e = err as Error
    outputs.push({
      place: `messaging client error (${what})`,
      text: [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 5 })].join('\n'),
      needles: NEEDLES,
    })
  }

  // The sandbox: every record it holds, its data dir, and what it printed.
  const sandboxRecords = await (await fetch(`${info.base}/_sandbox/records?limit=100000`)).text()
  outputs.push({ place: 'sandbox records', text: sandboxRecords, needles: NEEDLES })
  sandbox.child.kill('SIGINT')
  await sandbox.exited
  // The sandbox prints its own lead webhook URL on purpose (it is what the user configures).
  outputs.push({
    place: 'sandbox stdout+stderr',
    text: sandbox.output() + sandbox.errors(),
    needles: NEEDLES.filter((n) => n !== LEAD_ACCOUNT),
  })
  for (const file of filesUnder(sandboxData))
    outputs.push({
      place: `sandbox data ${file.slice(sandboxData.length)}`,
      text: readFileSync(file, 'latin1'),
      needles: NEEDLES,
    })
  // The agent's state dir (outbox journal, dead letters, incident state, lead map, checkpoints) was
  // scanned as each phase left it.
  const stateFiles = filesUnder(w.state)

  const leaks: Leak[] = []
  for (const o of outputs) scan(o.place, o.text, o.needles, leaks)
  const dead = filesUnder(w.state).filter((f) => f.endsWith('.dead'))
  recordDrill(task, {
    drill: 'secrets',
    events: outputs.length,
    unit: 'places',
    lost: leaks.length,
    duplicated: 0,
    timeMs: Date.now() - started,
    notes: `${NEEDLES.length} planted values; ${all.length} sandbox records; state files: ${stateFiles.map((f) => f.slice(w.state.length + 1)).join(' ')}`,
  })
  if (leaks.length > 0)
    process.stdout.write(`leaks:\n${leaks.map((l) => `  ${l.place}: ${l.needle} in …${l.context}…`).join('\n')}\n`)
  expect(leaks.map((l) => `${l.place}: ${l.needle}`)).toEqual([])
  // The scan saw what it should have: dead letters, deliveries with the redacted fields censored, leads.
  expect(dead.length).toBeGreaterThan(0)
  expect(sandboxRecords).toContain('[redacted]')
  expect(all.some((r) => r.kind === 'lead')).toBe(true)
  expect(outputs.some((o) => o.place.startsWith('test-rule') && o.text.includes('auth failed'))).toBe(true)
  // The failures of phase 2 named the API's URL, its key masked, in the log and in the outbox.
  const named = (prefix: string): boolean =>
    outputs.some((o) => o.place.startsWith(prefix) && o.text.includes('127.0.0.1:9/[redacted]/'))
  expect(named('api down agent'), 'the log').toBe(true)
  expect(named('api down state'), 'the outbox').toBe(true)
})
