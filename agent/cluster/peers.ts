// Who is in the fleet: every agent beats into the ZSET `P peers` (agent -> last beat, Redis's time)
// every heartbeat_ms and describes itself in `P peer:<agent>`; peers seen are those that beat within
// the last 3 heartbeats. Time is the server's, so hosts with skewed clocks still see each other.
import type { Peer } from './types'
import type { Keys } from './keys'
import { luaScript, type RedisLink } from './redis-connection'

const DAY_MS = 86_400_000

// KEYS: peers, peer:<me>. ARGV: me, host, pid, started, window ms. Answers the peers seen now.
const BEAT = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('HSET', KEYS[2], 'host', ARGV[2], 'pid', ARGV[3], 'started', ARGV[4])
redis.call('PEXPIRE', KEYS[2], ${DAY_MS})
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${DAY_MS})
return redis.call('ZCOUNT', KEYS[1], now - tonumber(ARGV[5]), '+inf')
`)

// KEYS: peers. ARGV: the peer hash prefix, window ms. Answers agent, last beat, host, pid, started for each.
const LIST = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local seen = redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[2]), '+inf', 'WITHSCORES')
local out = {}
for i = 1, #seen, 2 do
  local info = redis.call('HMGET', ARGV[1] .. seen[i], 'host', 'pid', 'started')
  table.insert(out, seen[i])
  table.insert(out, seen[i + 1])
  table.insert(out, info[1] or '')
  table.insert(out, info[2] or '0')
  table.insert(out, info[3] or '0')
end
return out
`)

/** The LIST answer as peers, most recently seen first (pure). */
export function readPeers(reply: unknown): Peer[] {
  const flat = Array.isArray(reply) ? reply.map(String) : []
  const peers: Peer[] = []
  for (let i = 0; i + 4 < flat.length; i += 5) {
    peers.push({
      agent: flat[i] as string,
      lastSeen: Number(flat[i + 1]),
      host: flat[i + 2] as string,
      pid: Number(flat[i + 3]),
      started: Number(flat[i + 4]),
    })
  }
  return peers.sort((a, b) => b.lastSeen - a.lastSeen)
}

export interface PeerBeat {
  start(): void
  stop(): void
  /** One beat now; the peers seen, or undefined when Redis is down. */
  beat(): Promise<number | undefined>
  list(): Promise<Peer[]>
  /** Peers seen at the last beat. */
  readonly seen: number
}

export function createPeerBeat(options: {
  link: RedisLink
  keys: Keys
  agentId: string
  host: string
  heartbeatMs: number
  started: number
}): PeerBeat {
  const { link, keys, agentId } = options
  const windowMs = 3 * options.heartbeatMs
  let timer: NodeJS.Timeout | undefined
  let seen = 0

  async function beat(): Promise<number | undefined> {
    if (!link.isUp()) return undefined
    try {
      const reply = await link.script(
        BEAT,
        [keys.peers, keys.peer(agentId)],
        [agentId, options.host, String(process.pid), String(options.started), String(windowMs)],
      )
      seen = Number(reply)
      return seen
    } catch {
      return undefined
    }
  }

  return {
    start() {
      timer ??= setInterval(() => void beat(), options.heartbeatMs)
      timer.unref()
      void beat()
    },
    stop() {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
    },
    beat,
    async list() {
      return readPeers(await link.script(LIST, [keys.peers], [keys.peer(''), String(windowMs)]))
    },
    get seen() {
      return seen
    },
  }
}
