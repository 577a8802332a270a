// `kind: new`: whether a line of a kind pages it as new. Pure; what a rule counts toward its min_count
// is kept in the kind's table entry (KindEntry.pending), so it outlives a restart. The rules, in order:
// 1. a kind learned (first seen while a first start learned, `kinds.learn`) is never new;
// 2. a kind already paged as new is not new again (a kind of a kinds file written before the paged
//    mark counts as paged: it was handled then);
// 3. a kind the table knew before this line, with nothing pending for this rule, is not new (a kind
//    first seen on another host of the fleet is new there, once, not here; one known before this rule
//    watched it is not new to it);
// 4. a kind pages once `minCount` of its lines (this one and those the rule counted before, a restart
//    in between or not) fell within `withinMs` (without `within`: ever since it was first seen);
//    min_count 1 pages its first line;
// 5. otherwise it waits: its times are kept (pending) and the next line of it decides again.
import type { KindEntry } from './types'

export type NewKindVerdict = 'page' | 'wait' | 'pass'

export interface NewKindInput {
  learned: boolean
  /** A `kind: new` rule paged the kind, or it is taken as handled (KindEntry.paged not false). */
  paged: boolean
  /** The table met the kind's id for the first time with this line. */
  isNew: boolean
  /** Earlier times of the kind this rule counts (it waits for min_count); undefined: none pending. */
  pending: readonly number[] | undefined
  now: number
  minCount: number
  withinMs: number | undefined
}

/** What of a table entry the decision reads, for the rule named `rule`. */
export function newKindStateOf(entry: KindEntry, rule: string): Pick<NewKindInput, 'learned' | 'paged' | 'pending'> {
  const pending = entry.pending?.find(([name]) => name === rule)?.[1]
  return { learned: entry.learned, paged: entry.paged !== false, pending }
}

/** The times of a pending kind worth keeping: this line's and the earlier ones still within the window. */
export function pendingTimes(input: NewKindInput): number[] {
  const since = input.withinMs === undefined ? -Infinity : input.now - input.withinMs
  const times = (input.pending ?? []).filter((at) => at > since)
  times.push(input.now)
  // More than min_count times never change a verdict.
  return times.length > input.minCount ? times.slice(times.length - input.minCount) : times
}

/**
 * Rules 1 to 3 read off the entry alone: a line of a kind learned, paged, or known with nothing pending
 * (most lines) passes without its input being made. Where it says true, newKindVerdict says 'pass'.
 */
export function passesOnEntry(entry: KindEntry, isNew: boolean): boolean {
  return entry.learned || entry.paged !== false || (!isNew && entry.pending === undefined)
}

/** Rules 1 to 5. */
export function newKindVerdict(input: NewKindInput): NewKindVerdict {
  if (input.learned) return 'pass'
  if (input.paged) return 'pass'
  if (!input.isNew && input.pending === undefined) return 'pass'
  return pendingTimes(input).length >= input.minCount ? 'page' : 'wait'
}
