// The kinds kept in state_dir, as the daemon and the fleet use them (a leaf: types only).
import type { KindEntry } from '../../alerts/kinds/types'

export type { KindDelta, KindEntry } from '../../alerts/kinds/types'

export interface KindStoreOptions {
  /** `<state_dir>/kinds.jsonl`; undefined keeps nothing (every start is a first start). */
  file: string | undefined
  now: number
}

export interface KindStoreStats {
  /** Lines in the file since it was opened or compacted. */
  lines: number
  /** Kinds written and still in the table at the last flush. */
  kinds: number
  /** Records appended (new kinds, moved counts) and compactions since open. */
  appended: number
  compactions: number
}

export interface KindStore {
  /** The kinds the file held at open; handed out once (the table holds them from then on). */
  restored(): KindEntry[]
  /** No kinds file existed: the agent's first start (kinds.learn counts from it). */
  readonly firstStart: boolean
  /** When learning started: the first start's time, kept in the file; now when the file was damaged. */
  readonly learningSince: number
  /** The file was damaged at open (kept aside, said): kinds it lost are learned again, not paged as new. */
  readonly damaged: boolean
  /** How far the fleet's kind counts were merged (a Redis stream id), as last written. */
  readonly fleetCursor: string | undefined
  /** Kept with the next flush, after the counts merged up to it. */
  setFleetCursor(cursor: string): void
  /** New kinds, appended with one write before this returns: call it before their page reaches the outbox. */
  added(entries: readonly KindEntry[]): void
  /** A `kind: new` rule's count toward its min_count (the times it counts), appended with one write. */
  waiting(id: string, rule: string, times: readonly number[]): void
  /** A `kind: new` rule paged the kind, appended with one write: call it before the page reaches the outbox. */
  paged(id: string): void
  /** What moved of `entries` (every kind the table holds) since the last write, or the file compacted to them. */
  flush(entries: Iterable<KindEntry>): void
  /** fsyncs what was appended since the last fsync (before a checkpoint commits the lines behind it). */
  fsync(): void
  close(): void
  stats(): KindStoreStats
}
