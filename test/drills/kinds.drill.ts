// Drill: kinds (issue #29). Two rows.
// (a) No kind is paged as new twice after a SIGKILL: the agent pages new kinds, is killed right after,
//     restarts on the same state_dir and is fed lines of the same kinds (other numbers): zero second
//     pages. The sandbox runs in its own process, so what it received outlives the kill.
// (b) Hostile input to the miner and the kind table: DISTINCT_LINES distinct random lines, binary lines
//     and 10 MB lines, all at error level under a `kind: new` rule: the agent stays up, its RSS stays
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
// Small, so the distinct lines evict many times over and the drill stays cheap.
const KINDS_MAX = 1000
// Each line a kind never met: the miner's costliest path (a hash, a tree insert, an eviction: about
// 45 us a line on the 2-core VM, a million in 45 s of CPU before the agent does anything else), so
// 300 times kinds.max rather than a million keeps the drill under two minutes on a shared machine.
const DISTINCT_LINES = 300_000
const KINDS = [
  'connection refused to 10.0.0.1:5432',
  'payment declined for order 8812 after 3 attempts',
  'cache node cache-7 evicted 1200 keys in 340 ms',
  'disk /var/lib/data at 97 percent',
  'TLS handshake with 192.168.4.2 failed: certificate expired',
]
/** The kind's message with its first number moved by `n`: the same kind, another line. */
function lineOf(msg: string, n: number): string {
  const shifted = msg.replace(/\d+/, (first) => String(Number(first) + n))
  return `${JSON.stringify({ level: 50, time: Date.now(), msg: shifted })}\n`
}

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

/**
 * `count` error lines of random letters-only words (a seeded mulberry32, so a run can be replayed):
 * far more kinds than kinds.max. No digit for the miner to mask, and the token count (2-8) and the
 * first two words (3-8 letters each) differ from line to line, so the tree's leaves (token count and
 * two leading tokens) hardly ever meet and each line is a kind of its own.
 */
function randomLines(count: number, seed: number): string {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
  const word = (): string => {
    let letters = ''
    for (let n = 3 + (next() % 6); n > 0; n--) letters += String.fromCharCode(97 + (next() % 26))
    return letters
  }
  const parts: string[] = []
  for (let i = 0; i < count; i++) parts.push(`ERROR ${Array.from({ length: 2 + (next() % 7) }, word).join(' ')}\n`)
  return parts.join('')
}

test('kinds: 300,000 distinct lines, binary and 10 MB lines: bounded, evictions counted', async ({ task }) => {
  const started = Date.now()
  const ws = createWorkspace()
  let agent: RunningAgent | undefined
  try {
    ws.writeConfig(smsRulesConfig(ws, NEW_KIND_RULE, undefined, { sections: `kinds: { max: ${KINDS_MAX} }\n` }))
    mkdirSync(ws.logs, { recursive: true })
    const app = join(ws.logs, 'app.log')
    writeFileSync(app, `${JSON.stringify({ level: 30, msg: `app started ${'.'.repeat(300)}` })}\n`)
    agent = await startAgentProcess(ws.config)
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256))
    const tenMb = Buffer.concat([Buffer.from('ERROR '), Buffer.alloc(10 * 1024 * 1024, 'y'), Buffer.from('\n')])
    let written = 0
    let peak = 0
    for (let part = 0; part < 10; part++) {
      appendFileSync(app, randomLines(DISTINCT_LINES / 10, part + 1))
      appendFileSync(app, Buffer.concat([binary, Buffer.from('\n'), tenMb]))
      written += DISTINCT_LINES / 10 + 2
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
      notes:
        `${newKinds} kinds met, ${kinds} held (max ${KINDS_MAX}), ${evicted} evicted, ` +
        '10 binary and 10 10 MB lines',
    })
    expect(health.ok).toBe(true)
    expect(kinds).toBeLessThanOrEqual(KINDS_MAX)
    expect(evicted).toBeGreaterThan(0)
    expect(peak).toBeLessThan(400)
  } finally {
    await agent?.kill('SIGKILL')
    ws.remove()
  }
})
