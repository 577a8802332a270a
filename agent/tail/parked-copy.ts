// Whether a parked file is a copy of the file it was taken for, or only starts like it. A file is
// parked on its first HEAD_BYTES alone; a real copy (made by copy-and-truncate, or a backup of the
// file) also holds the original's bytes further on and is never longer than the original. A file
// that differs from it there, or has grown past it, only starts the same way (a fixed banner or
// header line) and must be read, or its lines never would be. Pure: at each tick the tailer stats
// both files and reads the bytes to compare, this decides. In order:
// Before reading anything (parkedCopyWindow):
// 1. the original is not being read any more: nothing to decide here (stay parked): a truncated
//    original hands its unread rest to its copy, a released one releases its copies;
// 2. the original is shorter than what was read of it: it may have been truncated: stay parked;
// 3. the two share at most HEAD_BYTES bytes: nothing more to compare: stay parked;
// 4. otherwise compare the last HEAD_BYTES both have, at `at`;
// Given those bytes (parkedCopyVerdict):
// 5. the original no longer starts with its head (truncated meanwhile: the bytes compared were not
//    its content): stay parked;
// 6. the parked file is longer than the original: not a copy: read as a file of its own;
// 7. the compared bytes differ: not a copy: read as a file of its own;
// 8. otherwise: a copy still: stay parked.

import { HEAD_BYTES, headContinues } from './file-identity'

export interface ParkedSizes {
  readonly originalBeingRead: boolean
  readonly originalReadOffset: number
  readonly originalSize: number
  readonly parkedSize: number
}

export type ParkedCopyWindow = { readonly kind: 'stay-parked' } | { readonly kind: 'compare'; readonly at: number }

export function parkedCopyWindow(sizes: ParkedSizes): ParkedCopyWindow {
  if (!sizes.originalBeingRead || sizes.originalSize < sizes.originalReadOffset) return { kind: 'stay-parked' }
  const end = Math.min(sizes.parkedSize, sizes.originalSize)
  if (end <= HEAD_BYTES) return { kind: 'stay-parked' }
  return { kind: 'compare', at: end - HEAD_BYTES }
}

export interface ParkedWindows {
  readonly parkedSize: number
  readonly originalSize: number
  /** The compared bytes of the parked file and of the original. */
  readonly parked: Buffer
  readonly original: Buffer
  /** The original's head as known, and its first bytes read after the compared ones. */
  readonly originalHead: Buffer
  readonly originalHeadNow: Buffer
}

export type ParkedCopyVerdict =
  | { readonly kind: 'stay-parked' }
  | { readonly kind: 'own-file'; readonly reason: 'longer-than-original' | 'other-bytes' }

export function parkedCopyVerdict(facts: ParkedWindows): ParkedCopyVerdict {
  if (!headContinues(facts.originalHead, facts.originalHeadNow)) return { kind: 'stay-parked' }
  if (facts.parkedSize > facts.originalSize) return { kind: 'own-file', reason: 'longer-than-original' }
  if (!facts.parked.equals(facts.original)) return { kind: 'own-file', reason: 'other-bytes' }
  return { kind: 'stay-parked' }
}
