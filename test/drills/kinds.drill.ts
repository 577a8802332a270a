// Drill: kinds (issue #29). Two rows.
// (a) No kind is paged as new twice after a SIGKILL: the agent pages new kinds, is killed right after,
//     restarts on the same state_dir and is fed lines of the same kinds (other numbers): zero second
//     pages. The sandbox runs in its own process, so what it received outlives the kill.
// (b) Hostile input to the miner and the kind table: a million distinct random lines, binary lines and
//     10 MB lines, all at error level under a `kind: new` rule: the agent stays up, its RSS stays
//     bounded (the row's figure), the kinds past kinds.max are evicted and counted in /metrics.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  createWorkspace,
  metric,
  records,
  smsRulesConfig,
  startAgentProcess,
  startSandboxProcess,
  smsTexts,
  type RunningAgent,
  type SandboxProcess,
} from '../agent/daemon/helpers'
import { pollUntil } from '../helpers/poll-until'
import { peakRssOf, recordDrill } from './lib/report'

const NEW_KIND_RULE = `
  - name: new-kinds
    level: error
    kind: new
    notify: oncall-sms
`
const KINDS = [
  'connection refused to 10.0.0.1:5432',
  'payment declined for order 8812 after 3 attempts',
  'cache node cache-7 evicted 1200 keys in 340 ms',
  'disk /var/lib/data at 97 percent',
  'TLS handshake with 192.168.4.2 failed: certificate expired',
]
const lineOf = (msg: string, n: number): string =>
  `${JSON.stringify({ level: 50, time: Date.now(), msg: msg.replace(/\d+/, String(Number(/\d+/.exec(msg)?.[0] ?? 0) + n)) })}\n`

async function drained(agent: RunningAgent, linesRead: number): Promise<void> {
  await pollUntil(
    `${linesRead} lines read, nothing behind, the outbox empty`,
    async () =>
      (await metric(agent.metricsUrl, 'logx_agent_lines_read_total')) >= linesRead &&
      (await metric(agent.metricsUrl, 'logx_agent_bytes_behind')) === 0 &&
      (await metric(agent.metricsUrl, 'logx_agent_outbox_depth')) === 0
        ? true
        : undefined,
    { timeoutMs: 30_000 },
  )
}

test('kinds: no kind is paged as new twice after a SIGKILL', async ({ task }) => {
  const started = Date.now()
  const ws = createWorkspace()
  let sandbox: SandboxProcess | undefined
  let agent: RunningAgent | undefined
  try {
    sandbox = await startSandboxProcess()
    ws.writeConfig(smsRulesConfig(ws, NEW_KIND_RULE, sandbox.api, { sections: 'kinds: { learn: 0s }\n' }))
    mkdirSync(ws.logs, { recursive: true })
    const app = join(ws.logs, 'app.log')
    writeFileSync(app, `${JSON.stringify({ level: 30, msg: `app started ${'.'.repeat(300)}` })}\n`)
    agent = await startAgentProcess(ws.config)
    appendFileSync(app, KINDS.map((msg) => lineOf(msg, 0)).join(''))
    const paged = () => records(sandbox!.api.baseUrl).then((all) => smsTexts(all).length)
    await pollUntil('a page per new kind', async () => ((await paged()) >= KINDS.length ? true : undefined))
    // Killed right after its pages: no stop, no last flush of the kinds.
    await agent.kill('SIGKILL')
    agent = await startAgentProcess(ws.config)
    appendFileSync(app, KINDS.map((msg) => lineOf(msg, 1)).join(''))
    // Read since the restart: the new lines, and the old ones again when their checkpoint was not written.
    await drained(agent, KINDS.length)
    const pages = await paged()
    const duplicated = pages - KINDS.length
    recordDrill(task, {
      drill: 'kinds: SIGKILL after new-kind pages',
      events: KINDS.length * 2,
      unit: 'lines',
      lost: Math.max(0, KINDS.length - pages),
      duplicated: Math.max(0, duplicated),
      timeMs: Date.now() - started,
      notes: `${KINDS.length} kinds paged once each, killed, the same kinds again after the restart`,
    })
    expect(pages).toBe(KINDS.length)
  } finally {
    await agent?.kill('SIGKILL')
    await sandbox?.close()
    ws.remove()
  }
})

/** `count` random error lines of random words: far more kinds than kinds.max. */
function randomLines(count: number, seed: number): string {
  let state = seed
  const next = (): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state
  }
  // Letters only (no digit for the miner to mask), a random count of them: distinct leading words.
  const word = (): string => next().toString(36).replace(/[0-9]/g, '').slice(0, 7) || 'q'
  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 2 + (next() % 6) }, word).join(' ')
    parts.push(`ERROR ${words}\n`)
  }
  return parts.join('')
}

test('kinds: a million distinct lines, binary and 10 MB lines: bounded, evictions counted', async ({ task }) => {
  const started = Date.now()
  const ws = createWorkspace()
  let agent: RunningAgent | undefined
  try {
    ws.writeConfig(smsRulesConfig(ws, NEW_KIND_RULE, undefined, { sections: 'kinds: { max: 10000 }\n' }))
    mkdirSync(ws.logs, { recursive: true })
    const app = join(ws.logs, 'app.log')
    writeFileSync(app, `${JSON.stringify({ level: 30, msg: `app started ${'.'.repeat(300)}` })}\n`)
    agent = await startAgentProcess(ws.config)
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256))
    const tenMb = Buffer.concat([Buffer.from('ERROR '), Buffer.alloc(10 * 1024 * 1024, 'y'), Buffer.from('\n')])
    const MILLION = 1_000_000
    let written = 0
    let peak = 0
    for (let part = 0; part < 10; part++) {
      appendFileSync(app, randomLines(MILLION / 10, part + 1))
      appendFileSync(app, Buffer.concat([binary, Buffer.from('\n'), tenMb]))
      written += MILLION / 10 + 2
      peak = Math.max(peak, peakRssOf(agent.child.pid!) ?? 0)
    }
    await pollUntil(
      'every line read',
      async () => {
        peak = Math.max(peak, peakRssOf(agent!.child.pid!) ?? 0)
        return (await metric(agent!.metricsUrl, 'logx_agent_lines_read_total')) >= written ? true : undefined
      },
      { timeoutMs: 300_000 },
    )
    // The kinds' metrics are as of the last 5 s write: one more passes before they are read.
    const newKinds = await metric(agent.metricsUrl, 'logx_agent_kinds_new_total')
    await pollUntil('a write of the kinds', async () =>
      (await metric(agent!.metricsUrl, 'logx_agent_kinds')) > 0 ? true : undefined,
    ).catch(() => undefined)
    const evicted = await metric(agent.metricsUrl, 'logx_agent_kinds_evicted_total')
    const kinds = await metric(agent.metricsUrl, 'logx_agent_kinds')
    const health = (await (await fetch(`${agent.metricsUrl}/health`)).json()) as { ok: boolean }
    peak = Math.max(peak, peakRssOf(agent.child.pid!) ?? 0)
    recordDrill(task, {
      drill: 'kinds: hostile input',
      events: written,
      unit: 'lines',
      lost: 0,
      duplicated: 0,
      peakRssMb: peak,
      timeMs: Date.now() - started,
      notes: `${newKinds} kinds met, ${kinds} held (max 10000), ${evicted} evicted, 10 binary and 10 10 MB lines`,
    })
    expect(health.ok).toBe(true)
    expect(kinds).toBeLessThanOrEqual(10_000)
    expect(evicted).toBeGreaterThan(0)
    expect(peak).toBeLessThan(400)
  } finally {
    await agent?.kill('SIGKILL')
    ws.remove()
  }
})
