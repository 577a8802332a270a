// The checkpoint file: which offset of which file the caller has committed. Replaced whole through
// storage (agent/storage/replace-file.ts: temp file, fsync, rename, directory fsync) so a crash
// leaves the old or the new version, never a mix. Concurrent requests share writes (group commit):
// a request made while a write is in flight is satisfied by the next write, which snapshots the
// state when it starts.

import { replaceFileAsync } from '../storage/replace-file'
import { readStateFile } from '../storage/state-file'
import { removeStaleTempsAsync } from '../storage/temp-files'
import { TailError, TailErrorCodes } from './errors'

export const CHECKPOINT_VERSION = 1

export interface CheckpointEntry {
  readonly dev: string
  readonly ino: string
  /** hashHead() of the first `headLength` bytes. */
  readonly head: string
  readonly headLength: number
  /** Offset just past the last committed line. */
  readonly offset: number
  /** Last known path, for people reading the file; identity never depends on it. */
  readonly path: string | undefined
  /** Found while running and not yet classified (new file or rotation copy); see the README. */
  readonly pending?: boolean
}

interface CheckpointFile {
  version: number
  files: CheckpointEntry[]
}

/** The entries of a file that parsed; throws for a whole file of another version (no damage: kept as it is). */
function entriesOf(path: string, value: unknown): CheckpointEntry[] | undefined {
  const parsed = value as Partial<CheckpointFile> | null
  if (typeof parsed !== 'object' || parsed === null || !Number.isInteger(parsed.version)) return undefined
  if (parsed.version !== CHECKPOINT_VERSION) {
    throw new TailError(
      TailErrorCodes.CHECKPOINT_VERSION,
      `checkpoint ${path} has version ${parsed.version}; this tailer reads version ${CHECKPOINT_VERSION}`,
      { path },
    )
  }
  return Array.isArray(parsed.files) ? parsed.files.filter(isEntry) : undefined
}

/**
 * The committed offsets; none without a file. A damaged file is kept aside and said by storage
 * (state-file.ts), and the entries that were whole in it are used: a file without one is placed as
 * a new file is.
 */
export async function loadCheckpoint(path: string): Promise<CheckpointEntry[]> {
  // Temps of earlier processes that died mid-write (SIGKILL).
  await removeStaleTempsAsync(path)
  try {
    const read = {
      name: 'checkpoints',
      accept: (value: unknown) => entriesOf(path, value),
      count: entryCount,
      format: (files: CheckpointEntry[]) => `${JSON.stringify({ version: CHECKPOINT_VERSION, files })}\n`,
    }
    return readStateFile(path, read) ?? []
  } catch (error) {
    if (error instanceof TailError) throw error
    throw new TailError(TailErrorCodes.CHECKPOINT_READ, `cannot read checkpoint ${path}: ${(error as Error).message}`, {
      path,
      cause: error,
    })
  }
}

const entryCount = (entries: CheckpointEntry[]): number => entries.length

function isEntry(value: unknown): value is CheckpointEntry {
  const entry = value as Record<string, unknown>
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.dev === 'string' &&
    typeof entry.ino === 'string' &&
    typeof entry.head === 'string' &&
    Number.isSafeInteger(entry.headLength) &&
    Number.isSafeInteger(entry.offset) &&
    (entry.offset as number) >= 0
  )
}

export interface CheckpointWriter {
  /** Resolves once a write that started after this call is on disk. */
  request(): Promise<void>
  /** Write count so far (for stats and tests). */
  readonly writes: number
}

export function createCheckpointWriter(
  path: string,
  snapshot: () => CheckpointEntry[] | Promise<CheckpointEntry[]>,
): CheckpointWriter {
  let inFlight: Promise<void> | undefined
  let next: Promise<void> | undefined
  let writes = 0

  async function writeOnce(): Promise<void> {
    const body =
      JSON.stringify({ version: CHECKPOINT_VERSION, files: await snapshot() } satisfies CheckpointFile) + '\n'
    try {
      await replaceFileAsync(path, body, { mode: 0o600 })
      writes++
    } catch (error) {
      throw new TailError(
        TailErrorCodes.CHECKPOINT_WRITE,
        `cannot write checkpoint ${path}: ${(error as Error).message}`,
        { path, cause: error },
      )
    }
  }

  function start(): Promise<void> {
    const write = writeOnce().finally(() => {
      inFlight = undefined
    })
    inFlight = write
    return write
  }

  return {
    request() {
      if (next) return next
      if (!inFlight) return start()
      next = inFlight
        .catch(() => undefined)
        .then(() => {
          next = undefined
          return start()
        })
      return next
    },
    get writes() {
      return writes
    },
  }
}
