// What the scheduler tick does with each followed file (events can be missed: each tick also reads
// the files that grew). Pure: the tailer knows each file's phase and sizes, this decides. In order:
// 1. in probation and not grown since the last tick: settled (classified at its next turn, even
//    with a short head), and read;
// 2. active, detached (its path is gone), read since the last tick, at its end and not grown over
//    the tick: released, once a stat of its open handle says it did not grow since the last read
//    (the app may still write through it, and a file renamed out of the patterns sends no event);
//    if it did grow, it is read (confirmStopped). `read since the last tick`: a file renamed away
//    and then truncated must have had its turn, which hands its unread rest to the copy, first;
// 3. parked: checked for being a copy still (parked-copy.ts);
// 4. active, not detached and at its end: nothing to do (a quiet file costs one stat per tick);
// 5. anything else: read it.

import type { FileGenerationPhase } from './file-generation'

export interface TickFacts {
  readonly phase: FileGenerationPhase
  readonly detached: boolean
  /** Read (and checked for truncation) since the last tick. */
  readonly fresh: boolean
  readonly readOffset: number
  /** Size at the last read, and at the last tick. */
  readonly size: number
  readonly tickSize: number
}

export type TickPlan =
  | { readonly kind: 'release-if-stopped' }
  | { readonly kind: 'check-copy' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'read'; readonly settled: boolean }

export function planTick(file: TickFacts): TickPlan {
  if (file.phase === 'probation') return { kind: 'read', settled: file.size === file.tickSize }
  if (file.phase === 'parked') return { kind: 'check-copy' }
  if (
    file.phase === 'active' &&
    file.detached &&
    file.fresh &&
    file.readOffset >= file.size &&
    file.size === file.tickSize
  )
    return { kind: 'release-if-stopped' }
  if (file.phase === 'active' && !file.detached && file.size === file.readOffset) return { kind: 'idle' }
  return { kind: 'read', settled: false }
}

/** Rule 2's stat: `currentSize` undefined when it failed (the file is gone for good). */
export function confirmStopped(
  currentSize: number | undefined,
  readOffset: number,
): { readonly kind: 'release' } | { readonly kind: 'grew'; readonly size: number } {
  return currentSize === undefined || currentSize === readOffset
    ? { kind: 'release' }
    : { kind: 'grew', size: currentSize }
}
