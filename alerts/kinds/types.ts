// The kinds vocabulary (issue #29): what the miner gives an event, what the kind table keeps of a kind,
// and what a store or a fleet exchanges with the table. A leaf: types only. The miner (miner*.ts),
// the table (kind-table.ts) and the rule decisions (new, regressed, spike, ratio) implement it;
// agent/kinds keeps the table's entries in state_dir, agent/cluster shares them on Redis.
import type { AlertLine } from '../line'

/** What the miner makes of one event: its kind's id and template as they stand after this event. */
export interface KindRef {
  /**
   * Stable: derived from the template (a hash of it), never from arrival order, so the same on every
   * host and after a restart. When a template generalises (a token becomes `<*>`), the kind keeps the
   * id it had (the new template's own id becomes an alias of it).
   */
  id: string
  /** The event's message part with its variables as `<*>`, e.g. `Connection refused to <*>:<*>`. */
  template: string
  /** This event created the kind in this miner (not generalised into an existing one). */
  created: boolean
  /** The id the template would have on its own, when it differs from `id` (an alias). */
  aliasOf?: string | undefined
  /**
   * Only on the ref of the event that merged kinds (rare: a new object then, never on a repeat): the ids
   * of the kinds `id` absorbed with it (and their own aliases), now aliases of `id`. The table folds
   * their entries into this kind's (kind-fold.ts).
   */
  absorbed?: readonly string[] | undefined
}

export interface KindMinerOptions {
  /** Kinds kept per source; the least recently seen is evicted past it (`kinds.max`, 10,000). */
  max: number
}

export interface KindMinerStats {
  kinds: number
  evicted: number
  mined: number
}

/** The template miner: pure, synchronous, bounded; one per agent, keyed inside by source. */
export interface KindMiner {
  /** One event, whole: a raw text line (head and all), a multi-line event, or a parsed JSON line. */
  mine(line: AlertLine): KindRef
  /** The kinds a restart or a fleet already knows: their ids stay what they were (aliases included). */
  seed(
    source: string | undefined,
    kinds: readonly { id: string; template: string; aliases?: readonly string[] }[],
  ): void
  /** The id a template has now, following aliases; undefined when unknown. */
  resolve(source: string | undefined, id: string): string | undefined
  stats(): KindMinerStats
}

/** Hourly counts for 7 days: `[hourStartMs, count]`, oldest first, at most 168 entries. */
export type HourlyCounts = [number, number][]

/** What the kind table keeps of one kind (JSON-safe: the store and the fleet write it as it is). */
export interface KindEntry {
  id: string
  source: string | undefined
  template: string
  aliases: string[]
  level: number | undefined
  firstSeen: number
  lastSeen: number
  /** When an incident of this kind was last resolved (regressed rules read it). */
  lastResolved: number | undefined
  count: number
  hourly: HourlyCounts
  /** Hosts that saw it (at most 16, most recent first). */
  hosts: string[]
  /** One raw event of the kind (the first seen, cut to 1 KiB). */
  sample: string
  /** The incident key this kind last opened, if any. */
  incident: string | undefined
  /** Seen while learning (`kinds.learn` after a first start): recorded, never paged as new. */
  learned: boolean
  /**
   * Whether a `kind: new` rule paged it: distinct from known, so a kind known but still counting toward
   * a rule's `min_count` pages when it gets there, after a restart too. false: met here, not paged yet;
   * undefined (a kinds file written before this field): taken as already handled.
   */
  paged?: boolean | undefined
  /**
   * The times of its lines each `kind: new` rule counts toward its `min_count` while it waits, by rule
   * name (`[rule, times]`, times oldest first); undefined: no rule waits on it.
   */
  pending?: PendingNew[] | undefined
}

/** One `kind: new` rule's count toward its `min_count`: its name and the times of the lines it counts. */
export type PendingNew = [rule: string, times: number[]]

/** A kind's counts as one host adds them, for a fleet to merge (counts add up; first/last take min/max). */
export interface KindDelta {
  id: string
  source: string | undefined
  template: string
  level: number | undefined
  at: number
  count: number
  host: string
  sample: string
}

export type { AlertLine }
