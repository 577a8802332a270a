// The incident table's writes: every flush_ms, the buffered deltas go to Redis in ONE MULTI (per
// incident: its hash, its host's count and last seen, the listing ZSET, a threshold rule's per-second
// buckets), and the answers come back as each incident's fleet view (FleetSeen), which the engine
// uses to count the fleet's lines. Down: the batch is merged back and written on a later flush.
import type { FleetSeen } from './index'
import { createIncidentBuffer, type IncidentBuffer, type PendingIncident } from './incident-buffer'
import { INCIDENT_RETENTION_MS, MAX_LISTED_INCIDENTS, type Keys } from './keys'
import { isErrorReply, type RedisLink } from './redis-connection'
import type { DeliveryLog } from '../delivery/dispatcher'

// first = min, last = max, whichever host flushes first. Tiny, so EVAL (Redis caches it) inside the MULTI.
const WIDEN = `
local f = tonumber(redis.call('HGET', KEYS[1], 'first'))
local l = tonumber(redis.call('HGET', KEYS[1], 'last'))
if not f or tonumber(ARGV[1]) < f then redis.call('HSET', KEYS[1], 'first', ARGV[1]) end
if not l or tonumber(ARGV[2]) > l then redis.call('HSET', KEYS[1], 'last', ARGV[2]) end
return 1
`

interface Reading {
  key: string
  windowMs: number | undefined
  /** Indexes of the EXEC answers: HINCRBY count, ZSCORE last, HGETALL hits (windowed only). */
  count: number
  last: number
  hits: number | undefined
}

/** The MULTI's commands for one batch, and where each incident's answers are (pure). */
export function flushCommands(keys: Keys, agentId: string, batch: ReadonlyMap<string, PendingIncident>): { commands: string[][]; readings: Reading[] } {
  const commands: string[][] = []
  const readings: Reading[] = []
  for (const [key, p] of batch) {
    const inc = keys.incident(key)
    commands.push(['HSETNX', inc, 'gen', String(p.first)])
    commands.push(['HSETNX', inc, 'status', 'firing'])
    commands.push(['EVAL', WIDEN, '1', inc, String(p.first), String(p.last)])
    const names = [...(p.rule === '' ? [] : ['rule', p.rule]), ...(p.title === '' ? [] : ['title', p.title])]
    commands.push(['HSET', inc, ...names, `hl:${agentId}`, String(p.last)])
    const count = commands.push(['HINCRBY', inc, 'count', String(p.count)]) - 1
    commands.push(['HINCRBY', inc, `h:${agentId}`, String(p.count)])
    commands.push(['PEXPIRE', inc, String(INCIDENT_RETENTION_MS)])
    // GT: a host whose lines are older never moves the incident back in the listing.
    commands.push(['ZADD', keys.incidents, 'GT', String(p.last), key])
    const last = commands.push(['ZSCORE', keys.incidents, key]) - 1
    let hits: number | undefined
    if (p.windowMs !== undefined) {
      const hitsKey = keys.hits(key)
      for (const [second, n] of p.buckets) commands.push(['HINCRBY', hitsKey, String(second), String(n)])
      commands.push(['PEXPIRE', hitsKey, String(p.windowMs + 1_000)])
      hits = commands.push(['HGETALL', hitsKey]) - 1
    }
    readings.push({ key, windowMs: p.windowMs, count, last, hits })
  }
  if (batch.size > 0) commands.push(['ZREMRANGEBYRANK', keys.incidents, '0', String(-MAX_LISTED_INCIDENTS - 1)])
  return { commands, readings }
}

/** The lines of a threshold window ending at `last`, and the buckets gone out of it (pure). */
export function windowCount(flatHits: readonly string[], last: number, windowMs: number): { count: number; stale: string[] } {
  let count = 0
  const stale: string[] = []
  for (let i = 0; i + 1 < flatHits.length; i += 2) {
    const second = flatHits[i] as string
    if (Number(second) * 1000 > last - windowMs) count += Number(flatHits[i + 1])
    else stale.push(second)
  }
  return { count, stale }
}

/** Each incident's fleet view from the EXEC answers (pure), and the stale buckets to delete. */
export function readFlush(keys: Keys, readings: readonly Reading[], answers: readonly unknown[]): { seen: FleetSeen[]; cleanup: string[][] } {
  const seen: FleetSeen[] = []
  const cleanup: string[][] = []
  for (const r of readings) {
    const last = Number(answers[r.last])
    const count = Number(answers[r.count])
    if (r.windowMs === undefined || r.hits === undefined) {
      seen.push({ key: r.key, last, windowCount: count })
      continue
    }
    const hits = answers[r.hits]
    const window = windowCount(Array.isArray(hits) ? hits.map(String) : [], last, r.windowMs)
    if (window.stale.length > 0) cleanup.push(['HDEL', keys.hits(r.key), ...window.stale])
    seen.push({ key: r.key, last, windowCount: window.count })
  }
  return { seen, cleanup }
}

export interface IncidentFlusher {
  readonly buffer: IncidentBuffer
  onSeen(handler: (seen: FleetSeen[]) => void): void
  /** Writes what is buffered now (the timer calls it; tests and close may too). */
  flush(): Promise<void>
  start(): void
  stop(): void
}

export function createIncidentFlusher(options: { link: RedisLink; keys: Keys; agentId: string; flushMs: number; log: DeliveryLog }): IncidentFlusher {
  const { link, keys, agentId, log } = options
  const buffer = createIncidentBuffer()
  const handlers: ((seen: FleetSeen[]) => void)[] = []
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined

  async function write(): Promise<void> {
    if (buffer.size === 0 || !link.isUp()) return
    const batch = buffer.take()
    const { commands, readings } = flushCommands(keys, agentId, batch)
    let answers: unknown[]
    try {
      answers = await link.multi(commands)
    } catch (err) {
      if (isErrorReply(err)) {
        // Redis refused the batch itself (a key of another type under our prefix): retrying cannot help.
        log.error({ code: 'LOGX_CLUSTER_ERR_PROTOCOL', incidents: batch.size, err: (err as Error).message }, 'cluster: Redis refused an incident flush; its counts are dropped')
        return
      }
      buffer.restore(batch)
      return
    }
    const { seen, cleanup } = readFlush(keys, readings, answers)
    if (cleanup.length > 0) link.multi(cleanup).catch(() => undefined)
    for (const handler of handlers) {
      try {
        handler(seen)
      } catch (err) {
        log.error({ err: (err as Error).message }, 'cluster: a fleet-seen handler failed')
      }
    }
  }

  function flush(): Promise<void> {
    // One flush at a time: a slow Redis delays the next instead of piling them up.
    running ??= write().finally(() => {
      running = undefined
    })
    return running
  }

  return {
    buffer,
    onSeen: (handler) => {
      handlers.push(handler)
    },
    flush,
    start() {
      timer ??= setInterval(() => void flush(), options.flushMs)
      timer.unref()
    },
    stop() {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
    },
  }
}
