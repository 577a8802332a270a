// What follows a truncation (copy-and-truncate: pm2-logrotate, logrotate `copytruncate`; or a
// plain `> file`). The truncated generation ends; the file goes on as a new generation from 0.
// The lines of the ended generation not read yet are only in the copy, if the rotation made one.
// Pure: the tailer knows the ended generation's head and the parked copies of it, this decides.
// When the truncation is noticed (planTruncation):
// 1. a parked copy of the file exists (the copy was found before the truncation was): that copy
//    continues the ended generation from its next unread line, and the new generation is read
//    after it; any other parked copy of it (a second backup) is released unread;
// 2. no copy yet, and a head long enough to recognise one (MIN_COPY_MATCH_BYTES): the new
//    generation is held, since the copy is usually made just before the truncation and found a
//    moment after it; a new file that starts like the ended generation is that copy (new-file.ts);
// 3. a head too short to recognise a copy: the new generation is read at once.
// At each tick, a held generation (keepsWaitingForCopy):
// 4. stays held at the first tick after its truncation was noticed: that can be a moment before
//    the tick (or at it), and discovery, polling every 100 ms through a flood of events, needs
//    that long to find the copy; a whole tick is what it is given;
// 5. stays held while its truncation still waits for a copy and a file in probation (not
//    classified yet: under a backlog that can take longer than a tick) starts like it;
// 6. is read otherwise: a copy outside the patterns is never found, and waiting longer would only
//    delay the new lines.

import { MIN_COPY_MATCH_BYTES, startsLike } from './file-identity'

export type TruncationPlan<F> =
  | { readonly kind: 'continue-in-copy'; readonly copy: F; readonly release: readonly F[] }
  | { readonly kind: 'await-copy' }
  | { readonly kind: 'no-copy' }

/**
 * `endedHead`: the ended generation's head as last seen; `parkedCopies`: the parked copies of it, in the order they
 * were found.
 */
export function planTruncation<F>(endedHead: Buffer, parkedCopies: readonly F[]): TruncationPlan<F> {
  const [copy, ...others] = parkedCopies
  if (copy !== undefined) return { kind: 'continue-in-copy', copy, release: others }
  if (endedHead.length >= MIN_COPY_MATCH_BYTES) return { kind: 'await-copy' }
  return { kind: 'no-copy' }
}

/** A held generation's wait, as the tick sees it. */
export interface CopyWait {
  /** The head of the generation whose copy is awaited. */
  readonly endedHead: Buffer
  /** Ticks that came since the wait began, this one not counted. */
  readonly ticks: number
}

/** `wait`: undefined when the wait is over (or forgotten); `unclassified`: the heads of the files in probation. */
export function keepsWaitingForCopy(wait: CopyWait | undefined, unclassified: readonly Buffer[]): boolean {
  if (wait === undefined) return false
  return wait.ticks === 0 || unclassified.some((head) => startsLike(wait.endedHead, head))
}
