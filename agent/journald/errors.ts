// journald source errors with stable codes, never reused or renamed. Across a process boundary match
// on `code`, not on the class. README.md in this folder documents each code.

import { pathErrorClass } from '../coded-error'

export const JournaldErrorCodes = {
  /** `journalctl` is not on PATH (or cannot be executed): the source cannot start. */
  JOURNALCTL_MISSING: 'LOGX_JOURNALD_ERR_JOURNALCTL_MISSING',
  /** journalctl exited while the source was reading; it is started again from the last cursor. */
  JOURNALCTL_EXIT: 'LOGX_JOURNALD_ERR_JOURNALCTL_EXIT',
  /** A line of journalctl's output is not a journal entry in JSON (skipped, counted). */
  ENTRY: 'LOGX_JOURNALD_ERR_ENTRY',
  /** The cursor checkpoint exists but cannot be read or parsed; `path` is the file. */
  CURSOR_READ: 'LOGX_JOURNALD_ERR_CURSOR_READ',
  /** Writing the cursor checkpoint failed; what was read since the last write is read again after a restart. */
  CURSOR_WRITE: 'LOGX_JOURNALD_ERR_CURSOR_WRITE',
} as const

export type JournaldErrorCode = (typeof JournaldErrorCodes)[keyof typeof JournaldErrorCodes]

export class JournaldError extends pathErrorClass<JournaldErrorCode>('JournaldError', 'logx.journald.error') {}
