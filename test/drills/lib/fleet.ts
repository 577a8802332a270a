// A fleet for the drills (test/drills/fleet.drill.ts): one redis-server, one sandbox in its own
// process (what it received outlives every agent), and agents with distinct `cluster.agent_id`s, each
// with its own workspace (state_dir, config) and its own copy of the log. A member can be SIGKILLed
// and started again on the same state_dir and id. Pages are read back from the sandbox by incident;
// the log lines are `order <id> failed`, one incident per id (`group_by: [msg]`). Commands wait up to
// 3 s for Redis (`command_timeout`): on two shared cores a busy storm must not fail a claim open (a
// duplicate by design) and read as a broken promise of one page per incident.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  createWorkspace,
  metric,
  smsRulesConfig,
  startAgentProcess,
  startSandboxProcess,
  type RemoteApi,
  type RunningAgent,
  type SandboxProcess,
  type SandboxRecord,
  type Workspace,
} from '../../agent/daemon/helpers'
import { startRedisServer, type RedisServer, type RedisServerOptions } from '../../helpers/redis-server'
import { pollUntil } from '../../helpers/poll-until'

export const ONCALL = '919800000001'
export const LEAD = '919800000002'

export interface MemberOptions {
  /** Rules, as YAML list items (two spaces of indent). */
  rules: string
  lease?: string
  username?: string
  /** Written to <workspace>/redis.password, named as cluster.redis.password_file. */
  password?: string
}

export function fleetYaml(
  ws: Workspace,
  api: RemoteApi,
  redisUrl: string,
  agentId: string,
  options: MemberOptions,
): string {
  const auth: string[] = []
  if (options.username !== undefined) auth.push(`    username: ${options.username}`)
  if (options.password !== undefined) {
    const file = join(ws.dir, 'redis.password')
    writeFileSync(file, `${options.password}\n`, { mode: 0o600 })
    auth.push(`    password_file: ${file}`)
  }
  const cluster = `cluster:
  agent_id: ${agentId}
  redis:
    url: ${redisUrl}
${auth.map((l) => `${l}\n`).join('')}  lease: ${options.lease ?? '2s'}
  heartbeat: 200ms
  flush: 50ms
  command_timeout: 3s
`
  return smsRulesConfig(ws, options.rules, api, {
    channels: [`lead-sms: { type: sms, numbers: [${LEAD}] }`],
    sections: cluster,
  })
}

/** One agent of the fleet: its workspace, its copy of the log, and the process running now (if any). */
export interface Member {
  id: string
  ws: Workspace
  app: string
  agent: RunningAgent | undefined
  /** Starts (or starts again) the agent on the same config and state_dir. */
  start(): Promise<RunningAgent>
  /** SIGKILL, and waits for the exit. */
  kill(): Promise<void>
  append(text: string): void
  /** A change through this agent's console API, with the token its owner reads. */
  post(path: string, body: unknown): Promise<Response>
}

export function createMember(id: string, sandbox: SandboxProcess, redis: RedisServer, options: MemberOptions): Member {
  const ws = createWorkspace()
  mkdirSync(ws.logs, { recursive: true })
  const app = join(ws.logs, 'app.log')
  // A long first line, as an app's log starts: a file is told apart by its first 256 bytes, so a
  // restarted agent knows it for the one it read.
  appendFileSync(
    app,
    `${JSON.stringify({ level: 30, time: Date.now(), msg: `app started on ${id} ${'.'.repeat(300)}` })}\n`,
  )
  ws.writeConfig(fleetYaml(ws, sandbox.api, redis.url, id, options))
  const member: Member = {
    id,
    ws,
    app,
    agent: undefined,
    async start() {
      member.agent = await startAgentProcess(ws.config)
      return member.agent
    },
    async kill() {
      await member.agent?.kill('SIGKILL')
      member.agent = undefined
    },
    append: (text) => appendFileSync(app, text),
    post(path, body) {
      const token = readFileSync(join(ws.state, 'console.token'), 'utf8').trim()
      return fetch(`${running(member).metricsUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      })
    },
  }
  return member
}

export function running(member: Member): RunningAgent {
  if (member.agent === undefined) throw new Error(`agent ${member.id} is not running`)
  return member.agent
}

/** A metric of a member's running agent; 0 when it is not running (a killed agent's counters are gone). */
export async function memberMetric(member: Member, name: string): Promise<number> {
  return member.agent === undefined ? 0 : metric(member.agent.metricsUrl, name)
}

export async function sumMetric(members: readonly Member[], name: string): Promise<number> {
  let sum = 0
  for (const m of members) sum += await memberMetric(m, name)
  return sum
}

export interface Health {
  status: string
  cluster?: { status: string; reason?: string; agent: string; peers: number }
}

export async function healthOf(member: Member): Promise<Health> {
  return (await (await fetch(`${running(member).metricsUrl}/health`)).json()) as Health
}

/** The sandbox's SMS records (oldest first), those whose JSON holds `text` when given. */
export async function smsRecords(baseUrl: string, text?: string): Promise<SandboxRecord[]> {
  const q = text === undefined ? '' : `&q=${encodeURIComponent(text)}`
  const response = await fetch(`${baseUrl}/_sandbox/records?kind=sms&limit=5000${q}`)
  const body = (await response.json()) as { records: SandboxRecord[] }
  if (body.records.length >= 5000)
    throw new Error('5000 SMS records or more: the listing is cut, the drill cannot count them')
  return body.records.sort((a, b) => a.seq - b.seq)
}

export interface Tally {
  expected: number
  lost: number
  /** Pages of an incident beyond its first. */
  duplicated: number
  /** Incidents paged more than once. */
  repaged: number
  /** Incidents whose pages carry more than one Idempotency-Key. */
  mixedKeys: string[]
  missing: string[]
  /** Pages per incident (its records, oldest first). */
  pages: Map<string, SandboxRecord[]>
}

/** Pages per incident among `all`, by the incident id `idOf` finds in an SMS's text. */
export function tallyPages(
  all: readonly SandboxRecord[],
  ids: readonly string[],
  idOf: (sms: string) => string | undefined,
): Tally {
  const pages = new Map<string, SandboxRecord[]>(ids.map((id) => [id, []]))
  for (const r of all) {
    const id = idOf(String(r.record.sms))
    if (id !== undefined) pages.get(id)?.push(r)
  }
  const tally: Tally = { expected: ids.length, lost: 0, duplicated: 0, repaged: 0, mixedKeys: [], missing: [], pages }
  for (const [id, list] of pages) {
    if (list.length === 0) {
      tally.lost++
      tally.missing.push(id)
      continue
    }
    tally.duplicated += list.length - 1
    if (list.length > 1) tally.repaged++
    if (new Set(list.map((r) => r.record.idempotency_key)).size > 1) tally.mixedKeys.push(id)
  }
  return tally
}

export const recipientOf = (r: SandboxRecord): string => String(r.record.mobile ?? r.record.numbers ?? '')

/** A seeded shuffle (mulberry32), so a copy's order is replayable. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0
  const random = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

// The drills' log lines: `order <id> failed`, one incident per id (`group_by: [msg]`).
export const pad = (i: number): string => String(i).padStart(4, '0')
export const line = (msg: string): string => `${JSON.stringify({ level: 50, time: Date.now(), msg })}\n`
export const orderLine = (id: string): string => line(`order ${id} failed`)
export const idOf = (sms: string): string | undefined => /order (\S+) failed/.exec(sms)?.[1]
export const idsOf = (tag: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${tag}${pad(i)}`)
export const storm = (ids: readonly string[]): string => ids.map(orderLine).join('')
export const keysOf = (pages: readonly SandboxRecord[]): number =>
  new Set(pages.map((r) => r.record.idempotency_key)).size

/** A redis-server, a sandbox and the members, torn down together whatever a drill did to them. */
export interface Rig {
  redis: RedisServer
  sandbox: SandboxProcess
  members: Member[]
  baseUrl: string
  close(): Promise<void>
}

export async function startRig(
  ids: readonly string[],
  options: MemberOptions,
  redisOptions: RedisServerOptions = {},
): Promise<Rig> {
  const redis = await startRedisServer(redisOptions)
  const sandbox = await startSandboxProcess()
  const members = ids.map((id) => createMember(id, sandbox, redis, options))
  const rig: Rig = {
    redis,
    sandbox,
    members,
    baseUrl: sandbox.api.baseUrl,
    async close() {
      for (const m of rig.members) await m.kill()
      await sandbox.close()
      await redis.stop()
      for (const m of rig.members) m.ws.remove()
    },
  }
  try {
    // One at a time: on two cores, parallel starts only race each other.
    for (const m of members) await m.start()
  } catch (err) {
    await rig.close()
    throw err
  }
  return rig
}

/** Waits until every member's outbox is empty and its file read: nothing more is coming. */
export async function settled(
  members: readonly Member[],
  what: string,
  timeoutMs: number,
  more: () => Promise<boolean> = async () => true,
): Promise<void> {
  await pollUntil(
    what,
    async () => {
      if (!(await more())) return undefined
      for (const m of members) {
        if ((await memberMetric(m, 'logx_agent_outbox_depth')) !== 0) return undefined
        if ((await memberMetric(m, 'logx_agent_bytes_behind')) !== 0) return undefined
      }
      return true
    },
    { timeoutMs: timeoutMs },
  )
}

/** Every id paged (per the sandbox), then the members settled; the tally of the pages. */
export async function pagedAll(rig: Rig, ids: readonly string[], what: string, timeoutMs: number): Promise<Tally> {
  const tag = /^[a-z]+/.exec(ids[0] ?? '')?.[0] ?? ''
  try {
    await settled(
      rig.members,
      what,
      timeoutMs,
      async () => tallyPages(await smsRecords(rig.baseUrl, `order ${tag}`), ids, idOf).lost === 0,
    )
  } catch {
    // Measured below: the row and the assertions say what is missing.
  }
  return tallyPages(await smsRecords(rig.baseUrl), ids, idOf)
}

export const lastArrival = (tally: Tally): number =>
  Math.max(0, ...[...tally.pages.values()].flat().map((r) => Date.parse(String(r.record.created_at))))
