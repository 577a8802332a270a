// `kind: new`: whether a line of a kind pages it as new. Pure; the rule's pending kinds are kind-rules.ts's.
// The rules, in order:
// 1. a kind learned (first seen while a first start learned, `kinds.learn`) is never new;
// 2. a kind the table knew before this line, with nothing pending for this rule, is not new (a kind
//    first seen on another host of the fleet is new there, once, not here);
// 3. a new kind pages once `minCount` of its lines (this one included) fell within `withinMs`
//    (without `within`: ever since it was first seen); min_count 1 pages its first line;
// 4. otherwise it waits: its times are kept (pending) and the next line of it decides again.

export type NewKindVerdict = 'page' | 'wait' | 'pass'

export interface NewKindInput {
  learned: boolean
  /** The table met the kind's id for the first time with this line. */
  isNew: boolean
  /** Earlier times of the kind this rule keeps (it waits for min_count); undefined: none pending. */
  pending: readonly number[] | undefined
  now: number
  minCount: number
  withinMs: number | undefined
}

/** The times of a pending kind worth keeping: this line's and the earlier ones still within the window. */
export function pendingTimes(input: NewKindInput): number[] {
  const since = input.withinMs === undefined ? -Infinity : input.now - input.withinMs
  const times = (input.pending ?? []).filter((at) => at > since)
  times.push(input.now)
  // More than min_count times never change a verdict.
  return times.length > input.minCount ? times.slice(times.length - input.minCount) : times
}

export function newKindVerdict(input: NewKindInput): NewKindVerdict {
  if (input.learned) return 'pass'
  if (!input.isNew && input.pending === undefined) return 'pass'
  return pendingTimes(input).length >= input.minCount ? 'page' : 'wait'
}
