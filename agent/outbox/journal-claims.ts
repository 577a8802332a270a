// One outbox per journal file in a process. Two outboxes on one journal would each replay and send
// the other's notifications (and anything kept beside the journal, like a target's incident state,
// would be shared too). Across processes the daemon's instance lock does this job; inside one
// process (the targets of one worker) this registry does.
import { resolve } from 'node:path'
import { OutboxError, OutboxErrorCodes } from './errors'

const claimed = new Map<string, string>()

/** Claims `path` for `owner`; returns its release (idempotent). Throws IN_USE naming the holder. */
export function claimJournal(path: string, owner: string): () => void {
  const file = resolve(path)
  const holder = claimed.get(file)
  if (holder !== undefined) {
    throw new OutboxError(OutboxErrorCodes.IN_USE, `${path} is already the journal of ${holder} in this process`, {
      path,
      holder,
    })
  }
  claimed.set(file, owner)
  let released = false
  return () => {
    if (released) return
    released = true
    claimed.delete(file)
  }
}
