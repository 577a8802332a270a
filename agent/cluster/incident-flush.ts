// The incident table's writes: every flush_ms, the buffered deltas go to Redis as one script per
// FLUSH_CHUNK incidents (per incident: its hash, its host's count and last seen, the listing ZSET, a
// threshold rule's per-second buckets), and the answers come back as each incident's fleet view
// (FleetSeen), which the engine uses to count the fleet's lines. One script rather than a MULTI of
// ten commands per incident: the same work in Redis, one command for the client to make and read.
// Down: the batch is merged back and written on a later flush.
import type { FleetSeen } from './types'
import { createIncidentBuffer, type IncidentBuffer, type PendingIncident } from './incident-buffer'
import { INCIDENT_RETENTION_MS, MAX_LISTED_INCIDENTS, type Keys } from './keys'
import { isErrorReply, luaScript, type RedisLink } from './redis-connection'
import type { DeliveryLog } from '../delivery/types'

/** Incidents per script call: a big batch goes as several, so Redis answers others in between. */
export const FLUSH_CHUNK = 200

// KEYS[1] = the listing, then per incident its hash and its buckets' hash. ARGV[1..3] = agent,
// retention ms, listing bound; then per incident: key, first, last, rule, title, count, window ms
// ('' without), n, and n (second, lines) pairs. first = min and last = max whichever host flushes
// first. Answers, per incident: the fleet's last line (the listing's score) and its lines (within
// the window ending there, for a threshold rule, whose buckets out of it are deleted).
const FLUSH = luaScript(`
local listing, me, keep = KEYS[1], ARGV[1], ARGV[2]
local out, a = {}, 4
for k = 2, #KEYS, 2 do
  local inc, hits = KEYS[k], KEYS[k + 1]
  local key, first, last = ARGV[a], ARGV[a + 1], ARGV[a + 2]
  local rule, title, count, window = ARGV[a + 3], ARGV[a + 4], ARGV[a + 5], ARGV[a + 6]
  local n = tonumber(ARGV[a + 7])
  redis.call('HSETNX', inc, 'gen', first)
  redis.call('HSETNX', inc, 'status', 'firing')
  local f = tonumber(redis.call('HGET', inc, 'first'))
  if not f or tonumber(first) < f then redis.call('HSET', inc, 'first', first) end
  local l = tonumber(redis.call('HGET', inc, 'last'))
  if not l or tonumber(last) > l then redis.call('HSET', inc, 'last', last) end
  if rule ~= '' then redis.call('HSET', inc, 'rule', rule) end
  if title ~= '' then redis.call('HSET', inc, 'title', title) end
  redis.call('HSET', inc, 'hl:' .. me, last)
  local seen = redis.call('HINCRBY', inc, 'count', count)
  redis.call('HINCRBY', inc, 'h:' .. me, count)
  redis.call('PEXPIRE', inc, keep)
  -- GT: a host whose lines are older never moves the incident back in the listing.
  redis.call('ZADD', listing, 'GT', last, key)
  local fleetLast = tonumber(redis.call('ZSCORE', listing, key))
  if window ~= '' then
    local w = tonumber(window)
    for i = 1, n do redis.call('HINCRBY', hits, ARGV[a + 6 + 2 * i], ARGV[a + 7 + 2 * i]) end
    redis.call('PEXPIRE', hits, w + 1000)
    local buckets = redis.call('HGETALL', hits)
    seen = 0
    for i = 1, #buckets, 2 do
      if tonumber(buckets[i]) * 1000 > fleetLast - w then seen = seen + tonumber(buckets[i + 1])
      else redis.call('HDEL', hits, buckets[i]) end
    end
  end
  out[#out + 1] = fleetLast
  out[#out + 1] = seen
  a = a + 8 + 2 * n
end
redis.call('ZREMRANGEBYRANK', listing, 0, -tonumber(ARGV[3]) - 1)
return out
`)

/** One script call's keys and arguments for a chunk of the batch (pure). */
export function flushCall(
  keys: Keys,
  agentId: string,
  chunk: readonly (readonly [string, PendingIncident])[],
): { keys: string[]; args: string[] } {
  const names = [keys.incidents]
  const args = [agentId, String(INCIDENT_RETENTION_MS), String(MAX_LISTED_INCIDENTS)]
  for (const [key, p] of chunk) {
    names.push(keys.incident(key), keys.hits(key))
    const buckets = p.windowMs === undefined ? [] : [...p.buckets]
    args.push(
      key,
      String(p.first),
      String(p.last),
      p.rule,
      p.title,
      String(p.count),
      p.windowMs === undefined ? '' : String(p.windowMs),
      String(buckets.length),
    )
    for (const [second, lines] of buckets) args.push(String(second), String(lines))
  }
  return { keys: names, args }
}

/** The script's answers as each incident's fleet view (pure). */
export function readFlush(chunk: readonly (readonly [string, PendingIncident])[], answers: unknown): FleetSeen[] {
  const flat = Array.isArray(answers) ? answers : []
  return chunk.map(([key], i) => ({ key, last: Number(flat[2 * i]), windowCount: Number(flat[2 * i + 1]) }))
}

export interface IncidentFlusher {
  readonly buffer: IncidentBuffer
  onSeen(handler: (seen: FleetSeen[]) => void): void
  /** Writes what is buffered now (the timer calls it; tests and close may too). */
  flush(): Promise<void>
  start(): void
  stop(): void
}

export function createIncidentFlusher(options: {
  link: RedisLink
  keys: Keys
  agentId: string
  flushMs: number
  log: DeliveryLog
}): IncidentFlusher {
  const { link, keys, agentId, log } = options
  const buffer = createIncidentBuffer()
  const handlers: ((seen: FleetSeen[]) => void)[] = []
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined

  async function write(): Promise<void> {
    if (buffer.size === 0 || !link.isUp()) return
    const batch = [...buffer.take()]
    const chunks: (readonly [string, PendingIncident])[][] = []
    for (let i = 0; i < batch.length; i += FLUSH_CHUNK) chunks.push(batch.slice(i, i + FLUSH_CHUNK))
    const seen: FleetSeen[] = []
    await Promise.all(
      chunks.map(async (chunk) => {
        const call = flushCall(keys, agentId, chunk)
        try {
          seen.push(...readFlush(chunk, await link.script(FLUSH, call.keys, call.args)))
        } catch (err) {
          // Refused (a key of another type under our prefix): retrying cannot help. Unreachable: later.
          if (!isErrorReply(err)) return buffer.restore(new Map(chunk))
          log.error(
            { code: 'LOGX_CLUSTER_ERR_PROTOCOL', incidents: chunk.length, err: (err as Error).message },
            'cluster: Redis refused an incident flush; its counts are dropped',
          )
        }
      }),
    )
    if (seen.length === 0) return
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
