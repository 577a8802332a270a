// The kind table: what the agent knows of each kind (first and last seen, last resolved, counts, hourly
// counts for 7 days, hosts, a sample, the incident it opened, whether it was learned). Pure: `now` is an
// argument, nothing is read or written here; agent/kinds keeps `entries()` in state_dir and a fleet
// exchanges `KindDelta`s.
//
// The contract (H3 codes against it):
// - `observe(ref, line, now, host)`: one event the miner gave `ref`; returns the live entry and
//   whether the table met the id for the first time (`isNew`), with the entry's lastSeen before it.
// - `merge(delta)`: another host's counts: counts add, firstSeen takes the min, lastSeen the max,
//   hosts join. A kind is new once for a fleet: `isNew` is true only the first time the table knows
//   an id, whether a line here or a delta told it, so a kind first seen elsewhere is not new here.
// - `entries()` (least recently seen first) / `restore(entries)`: a restart's state; restore with
//   any entry ends learning (only a first start learns).
// - `resolved(id, now)`: an incident of the kind resolved (regressed rules read `lastResolved`).
// - `opened(id, key)`: the incident the kind opened.
// - `waiting(id, rule, times)` / `paged(id)`: a `kind: new` rule's count toward its min_count, and its
//   page (new-kind.ts): kept on the entry, so entries() hands them to a restart. A kind met here starts
//   not paged (`paged: false`); a restored entry without the mark is taken as paged.
// - Learning: a table never restored with an entry learns for `learnMs` from its first event: kinds
//   first seen then are `learned` (recorded, never paged as new). With `learnFrom` (a store's first
//   start), learning runs from it, restored or not: a restart while learning goes on learning.
// - Bounded by `max` kinds per source: the least recently seen is evicted (counted in stats()).
// Ids are global (a hash of the template): one entry per id, its source the first that showed it.
import type { AlertLine } from '../line'
import { addHourly, trimHourly } from './kind-table-hourly'
import type { KindDelta, KindEntry, KindRef, PendingNew } from './types'

export interface KindTableOptions {
  /** Kinds kept per source (`kinds.max`). */
  max: number
  /** How long a first start learns (`kinds.learn`); 0: no learning. */
  learnMs: number
  /**
   * When learning started, as a store kept it (the first start's time; a start after a damaged kinds
   * file: that start): learning runs from it for `learnMs` whatever restore() puts back.
   */
  learnFrom?: number | undefined
}

export interface KindSeen {
  /** The table's entry, live: read it, do not change it. */
  entry: KindEntry
  /** The first time this table knows the id (from a line here or a fleet's delta). */
  isNew: boolean
  /** The entry's lastSeen before this event; undefined when new. */
  previousSeen: number | undefined
}

export interface KindTableStats {
  kinds: number
  evicted: number
}

export interface KindTable {
  observe(ref: KindRef, line: AlertLine, now: number, host: string): KindSeen
  merge(delta: KindDelta, now: number): KindSeen
  get(id: string): KindEntry | undefined
  /** Every entry, least recently seen first (restore() puts them back in that order); copies. */
  entries(): KindEntry[]
  /** Puts saved entries back (over any of the same id); returns how many are kept under the bound. */
  restore(entries: readonly KindEntry[]): number
  resolved(id: string, now: number): boolean
  opened(id: string, incidentKey: string): void
  /** A `kind: new` rule waits on the kind: the times it counts toward its min_count, oldest first. */
  waiting(id: string, rule: string, times: readonly number[]): void
  /** A `kind: new` rule paged the kind: it is new no more, and no rule counts toward it any longer. */
  paged(id: string): void
  /** Whether kinds first seen at `now` are learned, not new. */
  learning(now: number): boolean
  stats(): KindTableStats
}

/** A sample is cut to this many characters. */
export const MAX_SAMPLE = 1024
/** Hosts kept per kind, most recent first. */
export const MAX_HOSTS = 16

function addHost(hosts: string[], host: string): void {
  if (hosts[0] === host) return
  const at = hosts.indexOf(host)
  if (at !== -1) hosts.splice(at, 1)
  hosts.unshift(host)
  if (hosts.length > MAX_HOSTS) hosts.length = MAX_HOSTS
}

function copyEntry(entry: KindEntry): KindEntry {
  return {
    ...entry,
    aliases: [...entry.aliases],
    hourly: entry.hourly.map(([hour, count]): [number, number] => [hour, count]),
    hosts: [...entry.hosts],
    pending: entry.pending?.map(([rule, times]): PendingNew => [rule, [...times]]),
  }
}

function setIncident(entry: KindEntry | undefined, incidentKey: string): void {
  if (entry !== undefined) entry.incident = incidentKey
}

/** A `kind: new` rule's count on the entry (the other rules' counts kept). */
function setPending(entry: KindEntry | undefined, rule: string, times: readonly number[]): void {
  if (entry === undefined) return
  const others = (entry.pending ?? []).filter(([name]) => name !== rule)
  entry.pending = [...others, [rule, [...times]]]
}

function markPaged(entry: KindEntry | undefined): void {
  if (entry === undefined) return
  entry.paged = true
  entry.pending = undefined
}

type Fresh = Pick<KindEntry, 'id' | 'source' | 'template' | 'level' | 'sample'>

/** Per source, ids in recency order (a Map keeps insertion order: a seen id moves to the end), bounded. */
function createRecency(max: number, byId: Map<string, KindEntry>) {
  const bySource = new Map<string | undefined, Map<string, KindEntry>>()
  let evicted = 0
  return {
    touch(entry: KindEntry): void {
      let order = bySource.get(entry.source)
      if (order === undefined) {
        order = new Map<string, KindEntry>()
        bySource.set(entry.source, order)
      }
      order.delete(entry.id)
      order.set(entry.id, entry)
      if (order.size <= max) return
      const oldest = order.keys().next().value
      if (oldest === undefined) return
      order.delete(oldest)
      byId.delete(oldest)
      evicted++
    },
    forget: (entry: KindEntry) => bySource.get(entry.source)?.delete(entry.id),
    evicted: () => evicted,
  }
}

export function createKindTable(options: KindTableOptions): KindTable {
  const byId = new Map<string, KindEntry>()
  const recency = createRecency(options.max, byId)
  let learnFrom = options.learnFrom
  let restored = false

  function learning(now: number): boolean {
    if ((restored && options.learnFrom === undefined) || options.learnMs <= 0) return false
    learnFrom ??= now
    return now < learnFrom + options.learnMs
  }

  function create(fresh: Fresh, at: number, now: number): KindEntry {
    const entry: KindEntry = {
      ...fresh,
      aliases: [],
      firstSeen: at,
      lastSeen: at,
      lastResolved: undefined,
      count: 0,
      hourly: [],
      hosts: [],
      incident: undefined,
      learned: learning(now),
      paged: false,
      pending: undefined,
    }
    byId.set(entry.id, entry)
    return entry
  }

  function seen(fresh: Fresh, at: number, count: number, host: string, now: number): KindSeen {
    const known = byId.get(fresh.id)
    const entry = known ?? create(fresh, at, now)
    const previousSeen = known?.lastSeen
    entry.count += count
    entry.firstSeen = Math.min(entry.firstSeen, at)
    entry.lastSeen = Math.max(entry.lastSeen, at)
    // The miner's template generalises as lines arrive; the id stays.
    entry.template = fresh.template
    addHourly(entry.hourly, at, count, now)
    addHost(entry.hosts, host)
    recency.touch(entry)
    return { entry, isNew: known === undefined, previousSeen }
  }

  function observe(ref: KindRef, line: AlertLine, now: number, host: string): KindSeen {
    const fresh = { id: ref.id, source: line.source, template: ref.template, level: line.level, sample: '' }
    const result = seen(fresh, now, 1, host, now)
    if (result.isNew) result.entry.sample = line.raw.slice(0, MAX_SAMPLE)
    if (ref.aliasOf !== undefined && !result.entry.aliases.includes(ref.aliasOf)) result.entry.aliases.push(ref.aliasOf)
    return result
  }

  function restore(entries: readonly KindEntry[]): number {
    if (entries.length > 0) restored = true
    for (const saved of [...entries].sort((a, b) => a.lastSeen - b.lastSeen)) {
      const entry = copyEntry(saved)
      const previous = byId.get(entry.id)
      if (previous !== undefined) recency.forget(previous)
      byId.set(entry.id, entry)
      recency.touch(entry)
    }
    let kept = 0
    for (const saved of entries) if (byId.has(saved.id)) kept++
    return kept
  }

  return {
    observe,
    merge(delta, now) {
      // Only an entry's fields: a delta's at, count and host would ride along into kinds.jsonl.
      const { id, source, template, level } = delta
      const fresh = { id, source, template, level, sample: delta.sample.slice(0, MAX_SAMPLE) }
      return seen(fresh, delta.at, delta.count, delta.host, now)
    },
    get: (id) => byId.get(id),
    entries() {
      const all = [...byId.values()].sort((a, b) => a.lastSeen - b.lastSeen)
      return all.map((entry) => {
        trimHourly(entry.hourly, entry.lastSeen)
        return copyEntry(entry)
      })
    },
    restore,
    resolved(id, now) {
      const entry = byId.get(id)
      if (entry === undefined) return false
      entry.lastResolved = now
      return true
    },
    opened: (id, incidentKey) => setIncident(byId.get(id), incidentKey),
    waiting: (id, rule, times) => setPending(byId.get(id), rule, times),
    paged: (id) => markPaged(byId.get(id)),
    learning,
    stats: () => ({ kinds: byId.size, evicted: recency.evicted() }),
  }
}
