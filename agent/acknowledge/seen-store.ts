// Where the missed-call poller keeps what it has seen: `<state_dir>/missed-calls.json`, replaced whole
// through the storage layer; or nothing (memory only).
import { existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DeliveryError, DeliveryErrorCodes } from '../delivery/errors'
import type { DeliveryLog } from '../delivery/types'
import { replaceFile } from '../storage/replace-file'
import { readStateFile } from '../storage/state-file'
import { stateOfStored, storedOf, type SeenState } from './missed-calls-cursor'

export interface SeenStore {
  /** Undefined: a first start (no file, or one that is not ours). */
  load(): SeenState | undefined
  /** Throws a DeliveryError when the file cannot be written. */
  save(state: SeenState): void
}

export function createSeenStore(file: string | undefined, log: DeliveryLog): SeenStore {
  if (file === undefined) return { load: () => undefined, save: () => {} }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  return { load: () => loadState(file, log), save: (state) => saveState(file, state) }
}

function loadState(file: string, log: DeliveryLog): SeenState | undefined {
  let state: SeenState | undefined
  const existed = existsSync(file)
  try {
    // A damaged file is kept aside and said by storage (state-file.ts).
    const format = (s: SeenState): string => JSON.stringify(storedOf(s))
    state = readStateFile(file, { name: 'missed-calls', accept: stateOfStored, count: (s) => s.ids.size, format })
  } catch (err) {
    throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot read ${file}: ${(err as Error).message}`, { cause: err })
  }
  // Without a state, a first start: calls listed now are not handed over.
  if (state === undefined && existed)
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
