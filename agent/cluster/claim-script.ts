// The notification log's two scripts: claim (before sending) and sent (after). Each is one Lua script,
// so a claim is atomic across the fleet. A claim's value:
//   c|<agent>|<seed>|<lease until, server ms>   claimed, being sent
//   s|<agent>|<seed>                            sent
// The key of a leased claim outlives its lease (it keeps the seed, so whoever takes over an expired
// lease sends with the same idempotency key, and says it was a failover). Time is Redis's (TIME), so
// leases do not depend on the hosts' clocks agreeing.
import { noticeIdOf } from '../delivery/fleet/fleet-gate'
import { claimKeyParts, idempotencyKey, isRepeat, sentRetentionMs, type Keys } from './keys'
import { ClusterError, ClusterErrorCodes } from './errors'
import type { Claim, FleetNotice } from './types'
import type { Acknowledgement, AckVia } from '../../alerts'
import { luaScript, type RedisLink } from './redis-connection'

// Both scripts take a batch: the claims (or marks) asked for in one turn of the event loop go in one
// call (batch.ts). KEYS = the incident hash of each notice; ARGV[1] = agent, ARGV[2] = lease ms, then
// NOTICE_ARGS per notice: head, tail, kind, retention ms, repeat ('1'/'0'), and for a mark the mode,
// the seed to write when there is no claim, and the notice's name to announce. The functions set a
// notice's key from its generation; a resolved notice whose generation was closed already (the
// resolve won elsewhere) takes the closed one's (`pgen`), so it finds that resolve's claim rather than
// opening a generation of its own.
const NOTICE_KEY = `
local me, lease = ARGV[1], tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function notice_key(inc, head, tail, kind, repeats)
  if repeats == '1' then return '', head .. tail end
  local gen = redis.call('HGET', inc, 'gen')
  if not gen and kind == 'resolved' then gen = redis.call('HGET', inc, 'pgen') end
  if not gen then
    gen = tostring(now)
    redis.call('HSET', inc, 'gen', gen)
  end
  return gen, head .. gen .. ':' .. tail
end
local function close_generation(inc, gen)
  if redis.call('HGET', inc, 'gen') == gen then
    redis.call('HSET', inc, 'pgen', gen)
    redis.call('HDEL', inc, 'gen', 'status', 'ack')
  end
end
`

const CLAIM = luaScript(`${NOTICE_KEY}
local function claim(inc, head, tail, kind, keep, repeats)
  local gen, key = notice_key(inc, head, tail, kind, repeats)
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
  local function won(seed, failover)
    redis.call('SET', key, 'c|' .. me .. '|' .. seed .. '|' .. (now + lease), 'PX', math.max(keep, lease))
    if kind == 'resolved' then close_generation(inc, gen) end
    return {'won', seed, failover}
  end
  local v = redis.call('GET', key)
  if not v then
    if repeats == '1' then return won(tostring(now), '0') end
    return won(gen, '0')
  end
  local state, holder, seed, deadline = string.match(v, '^([cs])|([^|]*)|([^|]*)|?(%d*)$')
  if not state then return {'bad', v} end
  if state == 's' then return {'done', holder} end
  if holder == me then return won(seed, '0') end
  local ends = tonumber(deadline) or 0
  if now >= ends then return won(seed, '1') end
  return {'held', holder, tostring(ends - now)}
end
local out = {}
for i = 1, #KEYS do
  local a = 3 + (i - 1) * 5
  out[i] = claim(KEYS[i], ARGV[a], ARGV[a + 1], ARGV[a + 2], tonumber(ARGV[a + 3]), ARGV[a + 4])
end
return out
`)

// A mark: merge (a send made while Redis was down) is written only where nobody else claimed it
// (no claim, or this agent's own lease), so what another agent paged is not marked as ours. The
// last ARGV is the channel the marks are announced on (sent-announcements.ts).
const SENT = luaScript(`${NOTICE_KEY}
local channel = ARGV[#ARGV]
local function mark(inc, head, tail, kind, keep, repeats, mode, seed, name)
  local gen, key = notice_key(inc, head, tail, kind, repeats)
  if repeats ~= '1' then seed = gen end
  local v = redis.call('GET', key)
  if v then
    local state, holder, s = string.match(v, '^([cs])|([^|]*)|([^|]*)')
    if mode == 'merge' and not (state == 'c' and holder == me) then return 0 end
    if s and s ~= '' then seed = s end
  end
  redis.call('SET', key, 's|' .. me .. '|' .. seed, 'PX', keep)
  if kind == 'resolved' and mode == 'merge' then close_generation(inc, gen) end
  redis.call('PUBLISH', channel, name)
  return 1
end
local out = {}
for i = 1, #KEYS do
  local a = 3 + (i - 1) * 8
  local head, tail, kind, keep = ARGV[a], ARGV[a + 1], ARGV[a + 2], tonumber(ARGV[a + 3])
  out[i] = mark(KEYS[i], head, tail, kind, keep, ARGV[a + 4], ARGV[a + 5], ARGV[a + 6], ARGV[a + 7])
end
return out
`)

export type ClaimAnswer = Exclude<Claim, { outcome: 'degraded' }>

/** A notice's part of a script's arguments. */
function noticeArgs(keys: Keys, n: FleetNotice): string[] {
  const { head, tail } = claimKeyParts(keys, n)
  return [head, tail, n.kind, String(sentRetentionMs(n)), isRepeat(n) ? '1' : '0']
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
    default: {
      const found =
        outcome === 'bad'
          ? 'claim value ' + JSON.stringify(a.slice(0, 80))
          : 'answer ' + JSON.stringify(parts.slice(0, 3))
      throw new ClusterError(
        ClusterErrorCodes.PROTOCOL,
        `the claim of ${n.kind} notice of incident ${n.incident} found a value it does not understand ` +
          `(${found}); another program writes under the key prefix?`,
      )
    }
  }
}

/**
 * Claims `notices` in one script call: each one's claim, or the error its answer is (a value another
 * program wrote under the prefix). Rejects as a whole when Redis cannot be reached.
 */
export async function runClaims(
  link: RedisLink,
  keys: Keys,
  agentId: string,
  leaseMs: number,
  notices: readonly FleetNotice[],
): Promise<(ClaimAnswer | ClusterError)[]> {
  const args = [agentId, String(leaseMs), ...notices.flatMap((n) => noticeArgs(keys, n))]
  const replies = await link.script(
    CLAIM,
    notices.map((n) => keys.incident(n.incident)),
    args,
  )
  return notices.map((n, i) => {
    try {
      return readClaimReply(n, Array.isArray(replies) ? replies[i] : undefined)
    } catch (err) {
      return err as ClusterError
    }
  })
}

/** Marks `marks` sent in one script call and announces them; each one's answer: whether its mark was written. */
export async function runSents(
  link: RedisLink,
  keys: Keys,
  agentId: string,
  leaseMs: number,
  marks: readonly { n: FleetNotice; mode: 'won' | 'merge' }[],
): Promise<boolean[]> {
  const args = [
    agentId,
    String(leaseMs),
    ...marks.flatMap(({ n, mode }) => [...noticeArgs(keys, n), mode, String(n.firedAt), noticeIdOf(n)]),
    keys.sent,
  ]
  const replies = await link.script(
    SENT,
    marks.map(({ n }) => keys.incident(n.incident)),
    args,
  )
  return marks.map((_, i) => Array.isArray(replies) && Number(replies[i]) === 1)
}
