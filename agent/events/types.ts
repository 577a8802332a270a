// The types other floors import from agent/events: a leaf, importing no file of the folder, so
// that a source at any floor above can implement them without a cycle through the folder.
import type { TailFileStatus, TailStats } from '../tail'

/**
 * One running source as the daemon sees it, whatever it reads: a file source (daemon/source-reader.ts)
 * or the journal (journald/journald-reader.ts). /health and /metrics read every source through it.
 */
export interface SourceReader {
  readonly name: string
  stats(): TailStats
  /** The files read, with their offsets; [] for a source that is not tailed by offset (the journal). */
  files(): TailFileStatus[]
  readonly parseErrors: number
  /** When the last commit reached disk (epoch ms), or when reading started. */
  readonly checkpointAt: number
  /** Why this source stopped reading (the agent is then unhealthy), or undefined while it reads. */
  readonly failure: string | undefined
  /** Stops reading; committed offsets are written. */
  close(): Promise<void>
  /** A network source (agent/intake/): where it listens, and what it took and refused (by HTTP status). */
  readonly intake?: {
    readonly urls: readonly string[]
    counts(): { requests: number; accepted: number; refused: Record<number, number> }
  }
}
