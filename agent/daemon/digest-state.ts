// What the digest remembers across restarts, in `<state_dir>/digest.json`: the end of the period
// the last digest covered (and when it was sent), so a restart neither sends it again nor skips the
// next. Replaced whole through agent/storage (temp file, fsync, rename, directory fsync); a damaged
// file is said and kept aside by storage and read as none (the schedule then begins again: rule 1 of
// digest-plan.ts), which never sends a period twice.
import { readStateFile } from '../storage/state-file'
import { replaceFile } from '../storage/replace-file'

export const DIGEST_STATE_FILE = 'digest.json'
const VERSION = 1

export interface DigestState {
  /** The end of the period the last digest covered (or where the schedule began). */
  covered: number
  /** When the last digest was handed to the outbox; undefined: none yet. */
  sentAt: number | undefined
}

function accept(value: unknown): DigestState | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  if (v.version !== VERSION || typeof v.covered !== 'number' || !Number.isFinite(v.covered)) return undefined
  return { covered: v.covered, sentAt: typeof v.sentAt === 'number' ? v.sentAt : undefined }
}

const format = (state: DigestState): string =>
  `${JSON.stringify({ version: VERSION, covered: state.covered, sentAt: state.sentAt })}\n`

/** The state kept in `file`; undefined when there is none (or none usable). */
export function readDigestState(file: string): DigestState | undefined {
  return readStateFile(file, { name: 'digest', accept, count: () => 1, format })
}

export function writeDigestState(file: string, state: DigestState): void {
  replaceFile(file, format(state))
}
