// The kinds of a fleet (issue #29): a kind new on any host is new once for the fleet, and every host's
// counts add up in every host's table.
// - A kind an agent meets first is claimed with `SET P kind:<id> <agent> NX` (kept 30 days): the first
//   agent to claim it holds it; the others count it `known`. Ids are the same on every host (a hash
//   of the template), so the claim needs no coordination beyond the key.
// - At each flush of the kinds (every few seconds) an agent publishes what its own lines added to
//   each kind since the last one (KindDelta), batched, on the stream `P kind-deltas`, and reads what
//   the others published since its cursor, merging it into its table: a kind first seen elsewhere is
//   known here from then on (the table says `new` only the first time it knows an id), so it is not
//   paged as new when it shows up here. The cursor is kept in kinds.jsonl after the counts it
//   covers, so a restart merges nothing twice; a first start reads the stream from its start (the
//   kinds the fleet knows).
// What it does not promise: two hosts meeting a kind in the same few seconds both find it new; their
// pages are one all the same (the incident key holds the kind id, and the notification log claims
// the notice fleet-wide). Fail open: Redis out of reach, nothing is claimed or merged, and the deltas
// wait (bounded) for the next exchange.
import type { KindDelta } from '../../alerts/kinds/types'
import type { KeptKinds } from '../kinds/kept-kinds'
import type { KindStore } from '../kinds/types'
import type { DeliveryLog } from '../delivery/types'
import type { Keys } from './keys'
import type { RedisLink } from './redis-connection'
import { streamEntries } from './shared-actions'
import type { FleetKinds, FleetKindsStats } from './types'

/** A claim is kept this long: a kind back after a month is new to the fleet again. */
export const KIND_CLAIM_MS = 30 * 24 * 3_600_000
/** Entries the delta stream keeps (approximately), and deltas per entry. */
export const MAX_DELTA_ENTRIES = 5000
export const DELTAS_PER_ENTRY = 100
/** Deltas waiting for Redis, at most (the oldest dropped past it). */
export const MAX_WAITING_DELTAS = 10_000
/** Entries read per exchange, at most (the rest next time). */
const READ_PER_EXCHANGE = 5000
const SAMPLE_SHARED = 256

const isString = (v: unknown): v is string => typeof v === 'string'
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0

/** A delta another agent wrote, checked (what is not one is skipped: another version, a hand-made entry). */
export function deltaOf(value: unknown): KindDelta | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const d = value as Record<string, unknown>
  if (!isString(d.id) || d.id === '' || !isString(d.template) || !isString(d.host) || !isString(d.sample))
    return undefined
  if (!isCount(d.at) || !isCount(d.count) || (d.source !== undefined && !isString(d.source))) return undefined
  if (d.level !== undefined && !isCount(d.level)) return undefined
  const { id, template, host, sample, at, count } = d as unknown as KindDelta
  return {
    id,
    source: d.source as string | undefined,
    template,
    level: d.level as number | undefined,
    at,
    count,
    host,
    sample,
  }
}

function decodeEntry(fields: readonly string[]): { agent: string; deltas: KindDelta[] } | undefined {
  const agent = fields[fields.indexOf('a') + 1]
  const data = fields[fields.indexOf('d') + 1]
  if (agent === undefined || data === undefined || !fields.includes('a') || !fields.includes('d')) return undefined
  try {
    const parsed: unknown = JSON.parse(data)
    if (!Array.isArray(parsed)) return undefined
    return { agent, deltas: parsed.map(deltaOf).filter((d): d is KindDelta => d !== undefined) }
  } catch {
    return undefined
  }
}

export function createFleetKinds(options: {
  link: RedisLink
  keys: Keys
  agentId: string
  log: DeliveryLog
}): FleetKinds {
  const { link, keys, agentId, log } = options
  const stream = `${keys.prefix}kind-deltas`
  const stats: FleetKindsStats = { claims: { won: 0, known: 0, degraded: 0 }, published: 0, merged: 0 }
  let waiting: KindDelta[] = []

  async function publish(deltas: KindDelta[]): Promise<void> {
    const all = waiting.concat(deltas.map((d) => ({ ...d, sample: d.sample.slice(0, SAMPLE_SHARED) })))
    waiting = []
    for (let from = 0; from < all.length; from += DELTAS_PER_ENTRY) {
      const part = all.slice(from, from + DELTAS_PER_ENTRY)
      try {
        const fields = ['a', agentId, 'd', JSON.stringify(part)]
        await link.command(['XADD', stream, 'MAXLEN', '~', String(MAX_DELTA_ENTRIES), '*', ...fields])
        stats.published += part.length
      } catch {
        // Kept for the next exchange, bounded: counts are worth less than memory.
        waiting = all.slice(from).slice(-MAX_WAITING_DELTAS)
        return
      }
    }
  }

  async function readOthers(kept: KeptKinds, store: Pick<KindStore, 'fleetCursor' | 'setFleetCursor'>, now: number) {
    let cursor = store.fleetCursor ?? '0'
    for (let read = 0; read < READ_PER_EXCHANGE;) {
      const reply = await link.command(['XREAD', 'COUNT', '500', 'STREAMS', stream, cursor])
      const entries = streamEntries(reply)
      if (entries.length === 0) break
      for (const { id, fields } of entries) {
        cursor = id
        const entry = decodeEntry(fields)
        if (entry === undefined || entry.agent === agentId) continue
        for (const delta of entry.deltas) kept.table.merge(delta, now)
        stats.merged += entry.deltas.length
      }
      read += entries.length
      if (entries.length < 500) break
    }
    store.setFleetCursor(cursor)
  }

  return {
    claim(entry) {
      if (!link.isUp()) {
        stats.claims.degraded++
        return
      }
      const key = `${keys.prefix}kind:${entry.id}`
      link.command(['SET', key, agentId, 'NX', 'PX', String(KIND_CLAIM_MS)]).then(
        (reply) => {
          if (reply === null) stats.claims.known++
          else stats.claims.won++
        },
        () => {
          stats.claims.degraded++
        },
      )
    },
    async exchange(kept, store, now) {
      const deltas = kept.takeLocal()
      if (!link.isUp()) {
        waiting = waiting.concat(deltas).slice(-MAX_WAITING_DELTAS)
        return
      }
      try {
        await publish(deltas)
        await readOthers(kept, store, now)
      } catch (err) {
        log.warn(
          { err: (err as Error).message },
          'cluster: the fleet kinds were not exchanged; again at the next flush',
        )
      }
    },
    stats: () => stats,
  }
}
