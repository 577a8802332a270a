// One queued notification. The payload is whatever the transport needs to send it again after a
// restart, so it must survive JSON.

export interface OutboxItem {
  id: string
  /** Which sender handles it (`sms`, `chat`, `lead`...). */
  kind: string
  payload: unknown
  createdAt: number
  attempts: number
  nextAttemptAt: number
  lastError?: string | undefined
  /** The server's Retry-After: no attempt before this, not even while draining or after a restart. */
  notBefore?: number | undefined
}

export interface DeadLetter extends OutboxItem {
  deadAt: number
  /** Error code (`LOGX_MSG_ERR_BAD_REQUEST`...) or name of the last failure. */
  reason: string
}

/** Where the reading of the spill files has got to: segment number and byte offset in it. */
export interface SpillCursor {
  seg: number
  offset: number
}

/**
 * What the journal holds, one per line. An `add` of an item taken from the spill carries the
 * cursor just past it, so moving an item from the spill into the journal is one write.
 */
export type JournalRecord =
  | { op: 'add'; item: OutboxItem; spill?: SpillCursor }
  | { op: 'retry'; id: string; attempts: number; nextAttemptAt: number; lastError: string; notBefore?: number }
  | { op: 'done'; id: string }
  | { op: 'dead'; id: string; deadAt: number; reason: string }
  | { op: 'spill'; seg: number; offset: number }
