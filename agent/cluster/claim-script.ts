// The notification log's two scripts: claim (before sending) and sent (after). Each is one Lua script,
// so a claim is atomic across the fleet. A claim's value:
//   c|<agent>|<seed>|<lease until, server ms>   claimed, being sent
//   s|<agent>|<seed>                            sent
// The key of a leased claim outlives its lease (it keeps the seed, so whoever takes over an expired
// lease sends with the same idempotency key, and says it was a failover). Time is Redis's (TIME), so
// leases do not depend on the hosts' clocks agreeing.
import { noticeIdOf } from '../delivery/fleet-gate'
import { claimKeyParts, idempotencyKey, isRepeat, sentRetentionMs, type Keys } from './keys'
import { ClusterError, ClusterErrorCodes } from './errors'
import type { Claim, FleetNotice } from './index'
import type { Acknowledgement, AckVia } from '../../alerts'
import { luaScript, type RedisLink } from './redis-connection'

// KEYS[1] = the incident hash. ARGV: head, tail, kind, agent, lease ms, retention ms, repeat ('1'/'0').
// Sets `key`, `gen` and `now`. A resolved notice whose generation was closed already (the resolve
// won elsewhere) takes the closed one's (`pgen`), so it finds that resolve's claim rather than
// opening a generation of its own.
const CLAIM_KEY = `
local inc, kind, me = KEYS[1], ARGV[3], ARGV[4]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gen, key = '', ''
if ARGV[7] == '1' then
  key = ARGV[1] .. ARGV[2]
else
  gen = redis.call('HGET', inc, 'gen')
  if not gen and kind == 'resolved' then gen = redis.call('HGET', inc, 'pgen') end
  if not gen then
    gen = tostring(now)
    redis.call('HSET', inc, 'gen', gen)
  end
  key = ARGV[1] .. gen .. ':' .. ARGV[2]
end
local function close_generation()
  if redis.call('HGET', inc, 'gen') == gen then
    redis.call('HSET', inc, 'pgen', gen)
    redis.call('HDEL', inc, 'gen', 'status', 'ack')
  end
end
`

const CLAIM = luaScript(`${CLAIM_KEY}
if kind == 'repeat' or kind == 'escalated' then
  if redis.call('HGET', inc, 'status') == 'acknowledged' then
    local by = ''
    local ack = redis.call('HGET', inc, 'ack')
    if ack then
      local ok, v = pcall(cjson.decode, ack)
      if ok and type(v) == 'table' and v.by then by = tostring(v.by) end
    end
    return {'acked', by, ack or ''}
  end
end
local lease, keep = tonumber(ARGV[5]), tonumber(ARGV[6])
local function won(seed, failover)
  redis.call('SET', key, 'c|' .. me .. '|' .. seed .. '|' .. (now + lease), 'PX', math.max(keep, lease))
  if kind == 'resolved' then close_generation() end
  return {'won', seed, failover}
end
local v = redis.call('GET', key)
if not v then
  if ARGV[7] == '1' then return won(tostring(now), '0') end
  return won(gen, '0')
end
local state, holder, seed, deadline = string.match(v, '^([cs])|([^|]*)|([^|]*)|?(%d*)$')
if not state then return {'bad', v} end
if state == 's' then return {'done', holder} end
if holder == me then return won(seed, '0') end
local ends = tonumber(deadline) or 0
if now >= ends then return won(seed, '1') end
return {'held', holder, tostring(ends - now)}
`)

// ARGV as the claim's, then mode ('won' | 'merge'), the seed to write when there is no claim, and
// the channel and message announcing the mark (sent-announcements.ts).
// merge (a send made while Redis was down): written only where nobody else claimed it (SET NX, or
// over this agent's own lease), so what another agent paged is not marked as ours.
const SENT = luaScript(`${CLAIM_KEY}
local keep, mode, seed = tonumber(ARGV[6]), ARGV[8], ARGV[9]
if ARGV[7] ~= '1' then seed = gen end
local v = redis.call('GET', key)
if v then
  local state, holder, s = string.match(v, '^([cs])|([^|]*)|([^|]*)')
  if mode == 'merge' and not (state == 'c' and holder == me) then return 0 end
  if s and s ~= '' then seed = s end
end
redis.call('SET', key, 's|' .. me .. '|' .. seed, 'PX', keep)
if kind == 'resolved' and mode == 'merge' then close_generation() end
redis.call('PUBLISH', ARGV[10], ARGV[11])
return 1
`)

export type ClaimAnswer = Exclude<Claim, { outcome: 'degraded' }>

function scriptArgs(keys: Keys, agentId: string, leaseMs: number, n: FleetNotice): { keys: string[]; args: string[] } {
  const { head, tail } = claimKeyParts(keys, n)
  return {
    keys: [keys.incident(n.incident)],
    args: [head, tail, n.kind, agentId, String(leaseMs), String(sentRetentionMs(n)), isRepeat(n) ? '1' : '0'],
  }
}

/** The `ack` field of the incident hash ({by, via, at, detail?} as JSON), or undefined. */
export function acknowledgementOf(text: string): Acknowledgement | undefined {
  try {
    const ack = JSON.parse(text) as Record<string, unknown>
    if (typeof ack.by !== 'string' || typeof ack.via !== 'string' || typeof ack.at !== 'number') return undefined
    const out: Acknowledgement = { by: ack.by, via: ack.via as AckVia, at: ack.at }
    if (typeof ack.detail === 'string') out.detail = ack.detail
    return out
  } catch {
    return undefined
  }
}

/** The script's answer as a Claim (pure). */
export function readClaimReply(n: FleetNotice, reply: unknown): ClaimAnswer {
  const parts = Array.isArray(reply) ? reply.map((part) => String(part)) : []
  const [outcome, a = '', b = ''] = parts
  switch (outcome) {
    case 'won':
      return { outcome: 'won', idempotencyKey: idempotencyKey(n, a), failover: b === '1' }
    case 'done':
      return { outcome: 'done', by: a }
    case 'held':
      return { outcome: 'held', by: a, retryAfterMs: Math.max(1, Number(b) || 1) }
    case 'acked':
      return { outcome: 'acked', by: a, ack: acknowledgementOf(b) }
    default:
      throw new ClusterError(
        ClusterErrorCodes.PROTOCOL,
        `the claim of ${n.kind} notice of incident ${n.incident} found a value it does not understand (${outcome === 'bad' ? 'claim value ' + JSON.stringify(a.slice(0, 80)) : 'answer ' + JSON.stringify(parts.slice(0, 3))}); another program writes under the key prefix?`,
      )
  }
}

export async function runClaim(link: RedisLink, keys: Keys, agentId: string, leaseMs: number, n: FleetNotice): Promise<ClaimAnswer> {
  const call = scriptArgs(keys, agentId, leaseMs, n)
  return readClaimReply(n, await link.script(CLAIM, call.keys, call.args))
}

/** Marks the notice sent. `merge`: a send made while degraded; true when the mark was written. */
export async function runSent(link: RedisLink, keys: Keys, agentId: string, leaseMs: number, n: FleetNotice, mode: 'won' | 'merge'): Promise<boolean> {
  const call = scriptArgs(keys, agentId, leaseMs, n)
  const reply = await link.script(SENT, call.keys, [...call.args, mode, String(n.firedAt), keys.sent, noticeIdOf(n)])
  return Number(reply) === 1
}
