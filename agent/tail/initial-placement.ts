// Where each file found at startup begins, given the checkpoint. Pure: the tailer opens the files,
// this decides. The order of the rules matters:
// 1. same inode and the remembered first bytes still there (and the file not shorter than the
//    offset): the same file, resume at its offset;
// 2. same inode but other first bytes: the file was truncated or rewritten while we were down, so
//    all of it is new: from 0;
// 3. another inode whose full head equals a file resumed by rule 1: a copy of a file being read,
//    held back (parked);
// 4. another inode whose full head equals an entry nobody resumed: the copy a copy-and-truncate
//    left behind while we were down (or the file moved to another filesystem): resume at that offset;
// 5. anything else: no checkpoint, startAt decides.
// Then where each begins (initialStart):
// 6. resumed: at its offset, in probation again if it was in probation (`pending`);
// 7. parked: not read; if it turns out not to be a copy after all (parked-copy.ts), from where a
//    file without a checkpoint starts (startAt);
// 8. rewritten while we were down: from 0, all of it is new;
// 9. anything else: startAt (`end`: just past its last complete line, so a line being written is
//    still read whole; `beginning`: 0).

import type { CheckpointEntry } from './checkpoint-store'
import { hashHead, HEAD_BYTES, sameFullHead } from './file-identity'
import type { FileGenerationPhase } from './file-generation'
import type { StartAt } from './options'

export interface FoundFile {
  /** `dev:ino` */
  readonly fileId: string
  readonly size: number
  /** First min(size, HEAD_BYTES) bytes. */
  readonly head: Buffer
}

export type Placement =
  | { readonly kind: 'resume'; readonly offset: number; readonly pending: boolean }
  | { readonly kind: 'parked'; readonly copyOf: number }
  | { readonly kind: 'fresh'; readonly rewritten: boolean }

export function placeInitialFiles(found: readonly FoundFile[], saved: readonly CheckpointEntry[]): Placement[] {
  const placements: Array<Placement | undefined> = found.map(() => undefined)
  const byInode = new Map(saved.map((entry) => [`${entry.dev}:${entry.ino}`, entry]))
  const claimed = new Set<CheckpointEntry>()
  const rewritten = new Set<number>()
  for (const [index, file] of found.entries()) {
    const entry = byInode.get(file.fileId)
    if (entry === undefined) continue
    const same =
      file.size >= entry.offset &&
      file.head.length >= entry.headLength &&
      hashHead(file.head.subarray(0, entry.headLength)) === entry.head
    if (!same) {
      rewritten.add(index)
      continue
    }
    claimed.add(entry)
    placements[index] =
      entry.pending === true
        ? { kind: 'resume', offset: 0, pending: true }
        : { kind: 'resume', offset: entry.offset, pending: false }
  }
  const resumedByInode = found.map((_, index) => placements[index]?.kind === 'resume')
  for (const [index, file] of found.entries()) {
    if (placements[index] !== undefined || file.head.length < HEAD_BYTES) continue
    const twin = found.findIndex(
      (other, otherIndex) =>
        otherIndex !== index && resumedByInode[otherIndex] === true && sameFullHead(other.head, file.head),
    )
    if (twin !== -1) {
      placements[index] = { kind: 'parked', copyOf: twin }
      continue
    }
    // Hashed only when a saved entry could match: a first start hashes nothing before its first read.
    const candidates = saved.filter((candidate) => !claimed.has(candidate) && candidate.headLength === HEAD_BYTES)
    if (candidates.length === 0) continue
    const hash = hashHead(file.head)
    const entry = candidates.find((candidate) => candidate.head === hash)
    if (entry === undefined || file.size < entry.offset) continue
    claimed.add(entry)
    placements[index] = { kind: 'resume', offset: entry.offset, pending: false }
  }
  return placements.map((placement, index) => placement ?? { kind: 'fresh', rewritten: rewritten.has(index) })
}

export interface InitialStart {
  readonly phase: FileGenerationPhase
  /** A file offset, or just past the last complete line (the tailer finds it). */
  readonly start: number | 'last-line-end'
}

export function initialStart(placement: Placement, startAt: StartAt): InitialStart {
  const fallback = startAt === 'end' ? 'last-line-end' : 0
  if (placement.kind === 'resume') return { phase: placement.pending ? 'probation' : 'active', start: placement.offset }
  if (placement.kind === 'parked') return { phase: 'parked', start: fallback }
  return { phase: 'active', start: placement.rewritten ? 0 : fallback }
}
