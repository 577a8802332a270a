// One lead per incident across a fleet: the CRM record of whichever agent records an incident first
// creates its lead, and every agent's later records of it go to that lead. `<P>lead:<incident>` holds
// (as JSON) the lead's id `l` and `r` once resolved, or, while a creation is under way, the key it is
// made under `c`, by whom and until when (a lease, like a notice's claim: an agent that dies while
// creating is taken over, under the same key, so a CRM that honours the key makes one lead).
import type { SharedLeadAnswer, SharedLeads } from '../delivery/record/lead-map'
import type { DeliveryLog } from '../delivery/types'
import { INCIDENT_RETENTION_MS, type Keys } from './keys'
import { luaScript, type RedisLink } from './redis-connection'

// KEYS[1] the lead's key. ARGV: agent, key to create under, opening ('1': a firing, which does not
// reuse a resolved lead), lease ms, retention ms.
const CLAIM_LEAD = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local me, lease, keep = ARGV[1], tonumber(ARGV[4]), tonumber(ARGV[5])
local function create(key)
  redis.call('SET', KEYS[1], cjson.encode({c = key, by = me, u = now + lease}), 'PX', keep)
  return {'create', key}
end
local v = redis.call('GET', KEYS[1])
if not v then return create(ARGV[2]) end
local ok, e = pcall(cjson.decode, v)
if not ok or type(e) ~= 'table' then return create(ARGV[2]) end
if type(e.l) == 'string' and e.l ~= '' then
  if e.r and ARGV[3] == '1' then return create(ARGV[2]) end
  return {'lead', e.l}
end
local key = type(e.c) == 'string' and e.c or ARGV[2]
if e.by == me or now >= (tonumber(e.u) or 0) then return create(key) end
return {'wait', tostring(e.by), tostring(math.max(1, (tonumber(e.u) or now) - now))}
`)

const RESOLVE_LEAD = luaScript(`
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local ok, e = pcall(cjson.decode, v)
if not ok or type(e) ~= 'table' or type(e.l) ~= 'string' then return 0 end
e.r = true
redis.call('SET', KEYS[1], cjson.encode(e), 'PX', tonumber(ARGV[1]))
return 1
`)

export function createFleetLeads(
  link: RedisLink,
  keys: Keys,
  agentId: string,
  leaseMs: number,
  log: DeliveryLog,
): SharedLeads {
  const keyOf = (incident: string): string => `${keys.prefix}lead:${incident}`
  const quietly = async (what: string, incident: string, run: () => Promise<unknown>): Promise<void> => {
    if (!link.isUp()) return
    try {
      await run()
    } catch (err) {
      log.warn({ incident, err: (err as Error).message }, `cluster: could not record ${what} in the fleet's leads`)
    }
  }
  return {
    async claim(incident, idempotencyKey, opening): Promise<SharedLeadAnswer> {
      if (!link.isUp()) return { kind: 'degraded' }
      let reply: unknown
      try {
        reply = await link.script(
          CLAIM_LEAD,
          [keyOf(incident)],
          [agentId, idempotencyKey, opening ? '1' : '0', String(leaseMs), String(INCIDENT_RETENTION_MS)],
        )
      } catch {
        // Fail open, as a notice's claim does: a second lead beats a record never made.
        return { kind: 'degraded' }
      }
      const [kind, a = '', b = ''] = Array.isArray(reply) ? reply.map((part) => String(part)) : []
      if (kind === 'lead') return { kind: 'lead', leadId: a }
      if (kind === 'create') return { kind: 'create', idempotencyKey: a }
      if (kind === 'wait') return { kind: 'wait', by: a, retryAfterMs: Number(b) || 1 }
      return { kind: 'degraded' }
    },
    created: (incident, leadId) =>
      quietly('a new lead', incident, () =>
        link.command(['SET', keyOf(incident), JSON.stringify({ l: leadId }), 'PX', String(INCIDENT_RETENTION_MS)]),
      ),
    resolved: (incident) =>
      quietly('a resolved lead', incident, () =>
        link.script(RESOLVE_LEAD, [keyOf(incident)], [String(INCIDENT_RETENTION_MS)]),
      ),
  }
}
