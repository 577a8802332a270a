// What happens to a state file found damaged at load, the same for every one of them: the damage
// is said (one report to whoever listens, the agent's logger; a process warning when nobody does),
// counted per file name (the agent's metric), and the damaged file is kept aside as
// `<file>.corrupt-<ISO time>` beside it, a copy no later save touches, so nothing is lost for a
// person to look at. Whatever records could be read are used; the loader starts from them.
//
// A journal whose only fault is a torn last record (a kill mid-append) is not damaged: the record
// was never acknowledged to anyone. It is said and counted apart (`torn`), and not kept aside.
import { chmodSync, closeSync, constants, copyFileSync, fsyncSync, openSync } from 'node:fs'
import { resolve } from 'node:path'
import { fsyncDirOf } from './fsync'

export interface CorruptStateReport {
  /** The file's path. */
  file: string
  /** What the metric calls it: `incidents`, `outbox`, `silences`... */
  name: string
  /** What was wrong, in a few words. */
  problem: string
  /** The copy of the damaged file; undefined when only a torn last record was dropped. */
  keptAs: string | undefined
  /** Records read and used. */
  kept: number
  /** Records (or lines) that could not be used; undefined when a damaged document cannot tell. */
  dropped: number | undefined
}

export type CorruptStateListener = (report: CorruptStateReport) => void

export interface CorruptStateCount {
  /** Files found damaged and kept aside. */
  corrupt: number
  /** Journals whose last record was torn (nothing kept aside). */
  torn: number
}

const listeners = new Set<CorruptStateListener>()
const counts = new Map<string, CorruptStateCount>()
/** The last damage found in each file (by absolute path) since the process started. */
const lastDamage = new Map<string, CorruptStateReport>()

/** Reports go to `listener` until the returned function is called. */
export function onCorruptState(listener: CorruptStateListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The one line a report is said as. */
export function describeCorruptState(report: CorruptStateReport): string {
  const dropped = report.dropped === undefined ? '' : `, ${report.dropped} dropped`
  const kept = `${report.kept} record${report.kept === 1 ? '' : 's'} kept${dropped}`
  if (report.keptAs === undefined) return `state file ${report.file}: ${report.problem}; ${kept}`
  const aside = `the damaged file is kept as ${report.keptAs}`
  return `state file ${report.file} is damaged (${report.problem}); ${kept}; ${aside}`
}

export function reportCorruptState(report: CorruptStateReport): void {
  const count = counts.get(report.name) ?? { corrupt: 0, torn: 0 }
  if (report.keptAs === undefined) count.torn++
  else count.corrupt++
  counts.set(report.name, count)
  if (report.keptAs !== undefined) lastDamage.set(resolve(report.file), report)
  if (listeners.size === 0) {
    // An in-app target has no agent logger: the process's warning channel says it.
    process.emitWarning(describeCorruptState(report), { code: 'LOGX_STATE_CORRUPT' })
    return
  }
  for (const listener of listeners) {
    try {
      listener(report)
    } catch {
      // A listener that fails must not fail the load.
    }
  }
}

/** Per file name, what was found so far in this process. */
export function corruptStateCounts(): ReadonlyMap<string, CorruptStateCount> {
  return counts
}

/**
 * Whether records of `file` were lost to damage (not to a torn last record) at a load in this process
 * since the last call: the caller reconciles once what depended on them.
 */
export function takeRecordsLost(file: string): boolean {
  return lastDamage.delete(resolve(file))
}

const stamp = (at: Date): string => at.toISOString()

/**
 * Copies `file` to `<file>.corrupt-<ISO time>` (never over an existing file: a suffix is added),
 * fsynced, 0600; returns the copy's path.
 */
export function keepAside(file: string, at: Date = new Date()): string {
  for (let attempt = 0; ; attempt++) {
    const aside = `${file}.corrupt-${stamp(at)}${attempt === 0 ? '' : `-${attempt}`}`
    try {
      copyFileSync(file, aside, constants.COPYFILE_EXCL)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 100) continue
      throw err
    }
    chmodSync(aside, 0o600)
    const fd = openSync(aside, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    fsyncDirOf(aside)
    return aside
  }
}
