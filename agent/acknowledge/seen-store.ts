// Where the missed-call poller keeps what it has seen: `<state_dir>/missed-calls.json`, replaced whole
// through the storage layer; or nothing (memory only).
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { DeliveryError, DeliveryErrorCodes } from '../delivery/errors'
import type { DeliveryLog } from '../delivery/types'
import { replaceFile } from '../storage/replace-file'
import { stateOfStored, storedOf, type SeenState } from './missed-calls-cursor'

export interface SeenStore {
  /** Undefined: a first start (no file, or one that is not ours). */
  load(): SeenState | undefined
  /** Throws a DeliveryError when the file cannot be written. */
  save(state: SeenState): void
}

export function createSeenStore(file: string | undefined, log: DeliveryLog): SeenStore {
  if (file === undefined) return { load: () => undefined, save: () => {} }
  mkdirSync(dirname(file), { recursive: true })
  return { load: () => loadState(file, log), save: (state) => saveState(file, state) }
}

function loadState(file: string, log: DeliveryLog): SeenState | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot read ${file}: ${(err as Error).message}`, { cause: err })
  }
  let state: SeenState | undefined
  try {
    state = stateOfStored(JSON.parse(text))
  } catch {
    state = undefined
  }
  // A torn file cannot happen (rename); a foreign one is a first start: old calls are not handed over.
  if (state === undefined)
    log.warn({ file }, 'missed-call state unreadable: starting afresh, calls listed now are taken as seen')
  return state
}

function saveState(file: string, state: SeenState): void {
  try {
    replaceFile(file, JSON.stringify(storedOf(state)))
  } catch (err) {
    throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot write ${file}: ${(err as Error).message}`, { cause: err })
  }
}
