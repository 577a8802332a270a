// The state directory made ready before anything in it is read: the first start step. Its files hold
// phone numbers and log text, so the directory is the owner's only (0700) and so is every file in
// it (0600, as storage creates them): a directory or file left readable by the group or others (an
// earlier version, a copy, a hand) is tightened, said once per start; one that cannot be (another
// owner) stops the start with an error naming it. And a state file found damaged while the agent
// loads is said on the agent's log (storage's corrupt-state.ts): the listener is the step's undo.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describeCorruptState, onCorruptState } from '../storage/corrupt-state'
import { DaemonError, DaemonErrorCodes } from './errors'
import type { AgentLogger } from './logger'

/** Permission bits of the group and others. */
const SHARED = 0o077
/** Subdirectories looked into (checkpoints/ and the like); deeper is not the agent's. */
const MAX_DEPTH = 2

type Chmod = (path: string, mode: number) => void

interface Tightening {
  chmod: Chmod
  done: string[]
}

function tighten(path: string, mode: number, tightening: Tightening): void {
  try {
    tightening.chmod(path, mode & 0o700)
  } catch (err) {
    throw new DaemonError(
      DaemonErrorCodes.STATE,
      `${path} is readable by other users (mode ${(mode & 0o777).toString(8)}) and cannot be made the owner's ` +
        `only: ${(err as Error).message}; run the agent as its owner, or chmod go-rwx it`,
      { cause: err },
    )
  }
  tightening.done.push(path)
}

/** Tightens `dir` and what it holds (regular files and directories; links are left alone). */
function tightenTree(dir: string, depth: number, tightening: Tightening): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const stat = lstatSync(path, { throwIfNoEntry: false })
    if (stat === undefined || stat.isSymbolicLink()) continue
    if (!stat.isFile() && !stat.isDirectory()) continue
    if ((stat.mode & SHARED) !== 0) tighten(path, stat.mode, tightening)
    if (stat.isDirectory() && depth < MAX_DEPTH) tightenTree(path, depth + 1, tightening)
  }
}

/** What was tightened. Throws DaemonError STATE when the directory cannot be made or tightened. */
export function checkStateDirModes(stateDir: string, chmod: Chmod = chmodSync): string[] {
  const tightening: Tightening = { chmod, done: [] }
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 })
    const stat = lstatSync(stateDir)
    if ((stat.mode & SHARED) !== 0) tighten(stateDir, stat.mode, tightening)
    tightenTree(stateDir, 1, tightening)
  } catch (err) {
    if (err instanceof DaemonError) throw err
    throw new DaemonError(DaemonErrorCodes.STATE, `cannot use state directory ${stateDir}: ${(err as Error).message}`, {
      cause: err,
    })
  }
  return tightening.done
}

/** The start step: the modes checked, damaged state files said on `log`. Returns its undo. */
export function prepareStateDir(stateDir: string, log: AgentLogger): () => void {
  const tightened = checkStateDirModes(stateDir)
  if (tightened.length > 0) {
    const shown = tightened.slice(0, 5).join(', ') + (tightened.length > 5 ? ` and ${tightened.length - 5} more` : '')
    const message = `state files were readable by other users, now the owner's only (0600, 0700): ${shown}`
    log.warn({ stateDir, tightened: tightened.length }, message)
  }
  return onCorruptState((report) => {
    log.warn({ file: report.file, keptAs: report.keptAs, kept: report.kept }, describeCorruptState(report))
  })
}
