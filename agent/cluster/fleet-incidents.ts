// Reading the shared tables for people (the CLI's `incidents`, the console) and for a starting agent
// (the run-time silences in force). Reads only; the writers are incident-flush.ts and shared-actions.ts.
import type { FleetIncident } from './types'
import type { Keys } from './keys'
import type { RedisLink } from './redis-connection'
import type { RuntimeSilence } from '../incidents/runtime-silences'

/** A flat HGETALL answer as a map. */
function fieldsOf(flat: unknown): Map<string, string> {
  const fields = new Map<string, string>()
  if (!Array.isArray(flat)) return fields
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), String(flat[i + 1]))
  return fields
}

function ackOf(text: string | undefined): FleetIncident['ack'] {
  if (text === undefined) return undefined
  try {
    const ack = JSON.parse(text) as { by?: unknown; via?: unknown; at?: unknown }
    return typeof ack.by === 'string' ? { by: ack.by, via: String(ack.via ?? ''), at: Number(ack.at) || 0 } : undefined
  } catch {
    return undefined
  }
}

/** One incident from its hash and its listing score (pure); undefined when the hash is gone. */
export function readIncident(key: string, last: number, flat: unknown): FleetIncident | undefined {
  const f = fieldsOf(flat)
  if (f.size === 0) return undefined
  const hosts = new Map<string, { agent: string; count: number; last: number }>()
  const host = (agent: string): { agent: string; count: number; last: number } => {
    let h = hosts.get(agent)
    if (h === undefined) hosts.set(agent, (h = { agent, count: 0, last: 0 }))
    return h
  }
  for (const [field, value] of f) {
    if (field.startsWith('h:')) host(field.slice(2)).count = Number(value)
    else if (field.startsWith('hl:')) host(field.slice(3)).last = Number(value)
  }
  return {
    key,
    rule: f.get('rule') ?? '',
    title: f.get('title') ?? '',
    count: Number(f.get('count') ?? 0),
    first: Number(f.get('first') ?? 0),
    last,
    status: f.get('status'),
    ack: ackOf(f.get('ack')),
    hosts: [...hosts.values()].sort((a, b) => b.count - a.count || a.agent.localeCompare(b.agent)),
  }
}

export async function listIncidents(link: RedisLink, keys: Keys, limit: number): Promise<FleetIncident[]> {
  if (!(limit > 0)) return []
  const listed = await link.command(['ZREVRANGE', keys.incidents, '0', String(Math.floor(limit) - 1), 'WITHSCORES'])
  const flat = Array.isArray(listed) ? listed.map(String) : []
  const entries: { key: string; last: number }[] = []
  for (let i = 0; i + 1 < flat.length; i += 2) entries.push({ key: flat[i] as string, last: Number(flat[i + 1]) })
  if (entries.length === 0) return []
  const hashes = await link.multi(entries.map((e) => ['HGETALL', keys.incident(e.key)]))
  return entries.flatMap((e, i) => readIncident(e.key, e.last, hashes[i]) ?? [])
}

/** The run-time silences in force at `now` (malformed and expired entries left out). */
export async function listSilences(link: RedisLink, keys: Keys, now: number): Promise<RuntimeSilence[]> {
  const silences: RuntimeSilence[] = []
  for (const text of fieldsOf(await link.command(['HGETALL', keys.silences])).values()) {
    try {
      const s = JSON.parse(text) as Partial<RuntimeSilence>
      const wellFormed =
        typeof s.id === 'string' &&
        typeof s.endsAt === 'number' &&
        typeof s.startsAt === 'number' &&
        typeof s.matchers === 'object' &&
        s.matchers !== null
      if (wellFormed && (s.endsAt as number) > now && Object.keys(s.matchers as object).length > 0)
        silences.push(s as RuntimeSilence)
    } catch {
      // Not ours: skipped.
    }
  }
  return silences
}
