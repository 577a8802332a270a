// Every file generation the tailer follows, found by fileId and by path, and what the loop owes
// them: which to read next (`dirty`, in order), which paths lost their file (`vacated`), which
// truncated generations wait for their copy (`awaitingCopy`), which released files still have
// lines not committed (`retained`, still in the checkpoint). Bookkeeping only: no I/O.

import type { FileGeneration } from './file-generation'

export interface AwaitingCopy {
  /** The generation that ended when the file was truncated. */
  readonly ended: FileGeneration
  /** Where its next unread line starts: its copy is read from there. */
  readonly lineStart: number
  /** The truncated file's new generation, held until the copy is found or a whole tick passes. */
  readonly next: FileGeneration
  /** Ticks that came since the truncation was noticed. */
  ticks: number
}

export interface FollowedFiles {
  /** Every generation not released: being read, in probation or parked. */
  readonly live: Set<FileGeneration>
  readonly byId: Map<string, FileGeneration>
  readonly byPath: Map<string, FileGeneration>
  /** Generations to read on the loop's next turns. */
  readonly dirty: Set<FileGeneration>
  /** Released generations whose last lines are not all committed yet. */
  readonly retained: Set<FileGeneration>
  /** Truncations waiting for their copy to show up, oldest first; older ones are forgotten. */
  readonly awaitingCopy: AwaitingCopy[]
  track(file: FileGeneration): void
  /** Queues the file for a read (a parked file is never read). */
  markDirty(file: FileGeneration): void
  /** Its path no longer names it. Returns true for a parked file: a copy without its name, to release. */
  detach(file: FileGeneration): boolean
  /** It was renamed within the patterns: it carries on under `path`. */
  moveTo(file: FileGeneration, path: string): void
  /** The file that was at `path` before a new one came, once: a new file there is a rotation. */
  takeVacated(path: string): FileGeneration | undefined
  forgetVacated(path: string): void
  /** No longer live (released or ended): off every index. */
  forget(file: FileGeneration): void
  awaitCopy(entry: AwaitingCopy): void
  parkedCopiesOf(file: FileGeneration): FileGeneration[]
  /** `file` has caught up: the files that wait for its rest can be read. */
  wakeWaitersOf(file: FileGeneration): void
}

/** Paths remembered as vacated; the oldest are forgotten past this. */
const MAX_VACATED = 4096
const MAX_AWAITING_COPY = 64

export function createFollowedFiles(): FollowedFiles {
  const live = new Set<FileGeneration>()
  const byId = new Map<string, FileGeneration>()
  const byPath = new Map<string, FileGeneration>()
  const dirty = new Set<FileGeneration>()
  const vacated = new Map<string, FileGeneration>()
  const awaitingCopy: AwaitingCopy[] = []

  return {
    live,
    byId,
    byPath,
    dirty,
    retained: new Set(),
    awaitingCopy,
    track(file) {
      live.add(file)
      byId.set(file.fileId, file)
      if (file.path !== undefined) byPath.set(file.path, file)
      if (file.phase !== 'parked') dirty.add(file)
    },
    markDirty(file) {
      if (file.phase !== 'parked') dirty.add(file)
    },
    detach(file) {
      if (file.path !== undefined && byPath.get(file.path) === file) {
        byPath.delete(file.path)
        // A new file at this path later is a rotation, read after this one's rest.
        vacated.set(file.path, file)
        if (vacated.size > MAX_VACATED) vacated.delete(vacated.keys().next().value as string)
      }
      file.path = undefined
      file.detached = true
      if (file.phase === 'parked') return true
      dirty.add(file)
      return false
    },
    moveTo(file, path) {
      if (file.path !== undefined && byPath.get(file.path) === file) byPath.delete(file.path)
      file.path = path
      file.detached = false
      byPath.set(path, file)
    },
    takeVacated(path) {
      const before = vacated.get(path)
      vacated.delete(path)
      return before
    },
    forgetVacated(path) {
      vacated.delete(path)
    },
    forget(file) {
      live.delete(file)
      dirty.delete(file)
      if (byId.get(file.fileId) === file) byId.delete(file.fileId)
      if (file.path !== undefined && byPath.get(file.path) === file) byPath.delete(file.path)
    },
    awaitCopy(entry) {
      awaitingCopy.push(entry)
      if (awaitingCopy.length > MAX_AWAITING_COPY) awaitingCopy.shift()
    },
    parkedCopiesOf(file) {
      return [...live].filter((other) => other.phase === 'parked' && other.copyOf === file)
    },
    wakeWaitersOf(file) {
      for (const other of live) if (other.waitsFor === file) dirty.add(other)
    },
  }
}
