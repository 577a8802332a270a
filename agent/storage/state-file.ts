// Reading back a state file that is replaced whole (replace-file.ts): run-time silences, the lead
// map, missed calls, checkpoints, journald cursors. A rename leaves the old text or the new, so a
// damaged file is not a crash of ours: a power cut on a file system that lost the data (an empty or
// zero-filled file), a disk, a hand. Such a file is reported and kept aside (corrupt-state.ts), and
// the caller is handed what could be read of it: its value, or, when its text is cut or spoilt
// part way, what of it parses whole (salvage.ts), when it still has the shape expected.
import { readFileSync, rmSync } from 'node:fs'
import { keepAside, reportCorruptState } from './corrupt-state'
import { replaceFile } from './replace-file'
import { salvageJson } from './salvage'

export interface StateFileRead<T> {
  /** The file's name in reports and metrics: `silences`, `lead-map`... */
  name: string
  /**
   * The value of a file that parsed as JSON, checked; undefined when it is not one of ours. It may
   * throw for a file that is whole but must not be used (a later version): that is no damage.
   */
  accept(value: unknown): T | undefined
  /** How many records a value holds, for the report. */
  count(value: T): number
  /** The text of a value, to write what was salvaged in place of the damaged file. */
  format?: (value: T) => string
}

/** Why `bytes` is not a readable state file, or undefined when it parses. */
function damageOf(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return 'empty'
  if (bytes.every((byte) => byte === 0)) return `zero-filled (${bytes.length} bytes)`
  if (bytes.includes(0)) return 'holds zero bytes'
  return undefined
}

/**
 * The file's value; undefined when it does not exist, or is damaged beyond use (reported and kept
 * aside). Other read failures (EACCES, EIO) are thrown: the caller names them.
 */
export function readStateFile<T>(file: string, read: StateFileRead<T>): T | undefined {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  let problem = damageOf(bytes)
  const text = bytes.toString('utf8')
  if (problem === undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (err) {
      problem = `not JSON: ${(err as Error).message}`
    }
    if (problem === undefined) {
      const value = read.accept(parsed)
      if (value !== undefined) return value
      problem = 'not the shape expected'
    }
  }
  const salvaged = salvageOf(text, read)
  const keptAs = keepAside(file)
  // The copy holds the damage: the file holds what was salvaged, or goes, so the next start reads
  // it whole (not a second copy of the same damage).
  if (salvaged === undefined) rmSync(file, { force: true })
  else if (read.format !== undefined) replaceFile(file, read.format(salvaged))
  const kept = salvaged === undefined ? 0 : read.count(salvaged)
  reportCorruptState({ file, name: read.name, problem, keptAs, kept, dropped: undefined })
  return salvaged
}

function salvageOf<T>(text: string, read: StateFileRead<T>): T | undefined {
  const value = salvageJson(text.replace(/\0/g, ''))
  if (value === undefined) return undefined
  try {
    return read.accept(value)
  } catch {
    // What is left of a damaged file does not even say its version: nothing to go on with.
    return undefined
  }
}
