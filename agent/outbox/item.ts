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
}

export interface DeadLetter extends OutboxItem {
  deadAt: number
  /** Error code (`LOGX_MSG_ERR_BAD_REQUEST`...) or name of the last failure. */
  reason: string
}

/** What the journal holds, one per line. */
export type JournalRecord =
  | { op: 'add'; item: OutboxItem }
  | { op: 'retry'; id: string; attempts: number; nextAttemptAt: number; lastError: string }
  | { op: 'done'; id: string }
  | { op: 'dead'; id: string; deadAt: number; reason: string }
