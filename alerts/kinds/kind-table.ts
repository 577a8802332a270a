// The kind table: what the agent knows of each kind (first and last seen, last resolved, counts, hourly
// counts for 7 days, hosts, a sample, the incident it opened, whether it was learned). Pure: `now` is an
// argument, nothing is read or written here; agent/kinds keeps `entries()` in state_dir and a fleet
// exchanges `KindDelta`s.
//
// The contract (agent/kinds and kind-rules.ts code against it):
// - `observe(ref, line, now, host)`: one event the miner gave `ref`; returns the live entry and
//   whether the table met the id for the first time (`isNew`), with the entry's lastSeen before it.
//   The answer is the kind's node, reused by its next event (`observe` or `merge`): a line of a known
//   kind allocates nothing here (fields set in place, recency a list through the nodes).
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
// - Merged kinds are one (kind-fold.ts): a ref naming the kinds the miner absorbed (`ref.absorbed`)
//   folds their entries into its kind's, and restore folds an entry whose id is another's alias. An
//   alias answers its kind (get, merge, resolved, opened, waiting, paged); a fold makes nothing new.
// Ids are global (a hash of the template): one entry per id, its source the first that showed it.
import type { AlertLine } from '../line'
import { foldRestored, MAX_HOSTS } from './kind-fold'
import { addHourly, HOUR_MS, trimHourly } from './kind-table-hourly'
import { KindIndex } from './kind-table-index'
import { RecencyList } from './recency-list'
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

/**
 * The answer to one event: the kind's own record in the table, the same object for each of its events
 * (nothing is made per line), so `isNew` and `previousSeen` hold until the kind's next event: read them
 * in the call that got them (every caller does); keep `entry`, which stays the kind's.
 */
export interface KindSeen {
  /** The table's entry, live: read it, do not change it. */
  readonly entry: KindEntry
  /** The first time this table knows the id (from a line here or a fleet's delta). */
  readonly isNew: boolean
  /** The entry's lastSeen before this event; undefined when new. */
  readonly previousSeen: number | undefined
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
  /**
   * Puts saved entries back (over any of the same id), an entry whose id is another's alias folded into
   * that one (kind-fold.ts rules 10-11); returns how many kinds are kept under the bound.
   */
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
export { MAX_HOSTS }

/** The host moves to the front in place: a splice would make an array of the removed host on every line. */
function addHost(hosts: string[], host: string): void {
  if (hosts[0] === host) return
  let at = hosts.indexOf(host)
  // A host not listed yet takes a new place, or the oldest one's when the list is full.
  if (at === -1) at = Math.min(hosts.length, MAX_HOSTS - 1)
  for (; at > 0; at--) hosts[at] = hosts[at - 1] ?? host
  hosts[0] = host
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

/**
 * A kind the table holds: its entry, its place in its source's recency list (threaded through the
 * nodes, so a line's touch is a few pointer moves, no Map delete and set), the last alias checked
 * against the entry's, and the KindSeen answer of its last event. One node per kind for its life in
 * the table: a line of a known kind makes no object.
 */
class KindNode implements KindSeen {
  isNew = true
  /** The entry's lastSeen before this event: a number field, so setting it boxes no number per line. */
  seenBefore = 0
  older: KindNode | undefined = undefined
  newer: KindNode | undefined = undefined
  listed = false
  /** `ref.aliasOf` as last checked: the aliases are searched only when it changes. */
  lastAlias: string | undefined = undefined
  /** The entry's last hourly bucket while a count of its hour may go straight in (addHourly's answer). */
  hourBucket: [number, number] | undefined = undefined

  constructor(
    readonly entry: KindEntry,
    readonly order: RecencyList<KindNode>,
  ) {}

  get previousSeen(): number | undefined {
    return this.isNew ? undefined : this.seenBefore
  }
}

/** Per source, kinds in recency order, bounded: past `max` the source's least recently seen is evicted. */
function createRecency(max: number, forget: (node: KindNode) => void) {
  const bySource = new Map<string | undefined, RecencyList<KindNode>>()
  let evicted = 0
  return {
    listOf(source: string | undefined): RecencyList<KindNode> {
      let order = bySource.get(source)
      if (order === undefined) {
        order = new RecencyList<KindNode>()
        bySource.set(source, order)
      }
      return order
    },
    touch(node: KindNode): void {
      const { order } = node
      order.touch(node)
      if (order.size <= max) return
      const oldest = order.first()
      if (oldest === undefined) return
      order.delete(oldest)
      forget(oldest)
      evicted++
    },
    evicted: () => evicted,
  }
}

const inHour = (hourStart: number, at: number): boolean => at >= hourStart && at < hourStart + HOUR_MS

function freshEntry(fresh: Fresh, at: number, learned: boolean): KindEntry {
  return {
    ...fresh,
    aliases: [],
    firstSeen: at,
    lastSeen: at,
    lastResolved: undefined,
    count: 0,
    hourly: [],
    hosts: [],
    incident: undefined,
    learned,
    paged: false,
    pending: undefined,
  }
}

/** The node of a known id, its answer set for this event; undefined when the table does not know it. */
function knownNode(node: KindNode | undefined): KindNode | undefined {
  if (node === undefined) return undefined
  node.isNew = false
  node.seenBefore = node.entry.lastSeen
  return node
}

function copiesByLastSeen(byId: ReadonlyMap<string, KindNode>): KindEntry[] {
  const all = [...byId.values()].map((node) => node.entry).sort((a, b) => a.lastSeen - b.lastSeen)
  return all.map((entry) => {
    trimHourly(entry.hourly, entry.lastSeen)
    return copyEntry(entry)
  })
}

export function createKindTable(options: KindTableOptions): KindTable {
  const kinds = new KindIndex<KindNode>()
  const recency = createRecency(options.max, (node) => kinds.forget(node))
  let learnFrom = options.learnFrom
  let restored = false

  function learning(now: number): boolean {
    if ((restored && options.learnFrom === undefined) || options.learnMs <= 0) return false
    learnFrom ??= now
    return now < learnFrom + options.learnMs
  }

  function create(fresh: Fresh, at: number, now: number): KindNode {
    const entry = freshEntry(fresh, at, learning(now))
    const node = new KindNode(entry, recency.listOf(entry.source))
    kinds.add(node)
    return node
  }

  /** Counts an event (or a delta's `count` of them) at `at` on the node: fields set in place. */
  function count(node: KindNode, template: string, at: number, n: number, host: string, now: number): KindSeen {
    const { entry } = node
    entry.count += n
    if (at < entry.firstSeen) entry.firstSeen = at
    if (at > entry.lastSeen) entry.lastSeen = at
    // The miner's template generalises as lines arrive; the id stays.
    entry.template = template
    const bucket = node.hourBucket
    const hourly = entry.hourly
    if (bucket !== undefined && inHour(bucket[0], at) && inHour(bucket[0], now) && hourly[hourly.length - 1] === bucket)
      bucket[1] += n
    else node.hourBucket = addHourly(hourly, at, n, now)
    addHost(entry.hosts, host)
    recency.touch(node)
    return node
  }

  function observe(ref: KindRef, line: AlertLine, now: number, host: string): KindSeen {
    if (ref.absorbed !== undefined) kinds.foldAbsorbed(ref.id, ref.absorbed)
    let node = knownNode(kinds.nodeOf(ref.id))
    if (node === undefined) {
      const sample = line.raw.slice(0, MAX_SAMPLE)
      node = create({ id: ref.id, source: line.source, template: ref.template, level: line.level, sample }, now, now)
    }
    if (ref.aliasOf !== undefined && ref.aliasOf !== node.lastAlias) kinds.addAlias(node, ref.aliasOf)
    return count(node, ref.template, now, 1, host, now)
  }

  function restore(entries: readonly KindEntry[]): number {
    if (entries.length > 0) restored = true
    const folded = foldRestored(entries.map(copyEntry))
    for (const entry of [...folded].sort((a, b) => a.lastSeen - b.lastSeen)) {
      const previous = kinds.byId.get(entry.id)
      if (previous !== undefined) {
        previous.order.delete(previous)
        kinds.forget(previous)
      }
      const node = new KindNode(entry, recency.listOf(entry.source))
      kinds.add(node)
      recency.touch(node)
    }
    let kept = 0
    for (const entry of folded) if (kinds.byId.has(entry.id)) kept++
    return kept
  }

  function merge(delta: KindDelta, now: number): KindSeen {
    let node = knownNode(kinds.nodeOf(delta.id))
    if (node === undefined) {
      // Only an entry's fields: a delta's at, count and host would ride along into kinds.jsonl.
      const { id, source, template, level } = delta
      node = create({ id, source, template, level, sample: delta.sample.slice(0, MAX_SAMPLE) }, delta.at, now)
    }
    // Counts of a kind folded here (a host whose miner has not merged it yet) leave the template as it is.
    const template = node.entry.id === delta.id ? delta.template : node.entry.template
    return count(node, template, delta.at, delta.count, delta.host, now)
  }

  const entryOf = (id: string): KindEntry | undefined => kinds.nodeOf(id)?.entry

  return {
    observe,
    merge,
    get: entryOf,
    entries: () => copiesByLastSeen(kinds.byId),
    restore,
    resolved(id, now) {
      const entry = entryOf(id)
      if (entry === undefined) return false
      entry.lastResolved = now
      return true
    },
    opened: (id, incidentKey) => setIncident(entryOf(id), incidentKey),
    waiting: (id, rule, times) => setPending(entryOf(id), rule, times),
    paged: (id) => markPaged(entryOf(id)),
    learning,
    stats: () => ({ kinds: kinds.byId.size, evicted: recency.evicted() }),
  }
}
