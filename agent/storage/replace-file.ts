// A state file replaced whole: written beside itself, then renamed over it, so a reader (or the
// next start after a kill) sees the old content or the new, never a mix. The one way the delivery
// path's state files (lead map, missed calls, run-time silences, journals' compactions) are rewritten.
import { renameSync, writeFileSync } from 'node:fs'

/** Throws what the file system throws; callers say which state it was. */
export function replaceFile(file: string, text: string): void {
  const tmp = `${file}.tmp`
  writeFileSync(tmp, text)
  renameSync(tmp, file)
}
