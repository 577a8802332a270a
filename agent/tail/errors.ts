// Tailer errors with stable codes, never reused or renamed. Across a worker-thread or process
// boundary match on `code`, not on the class. README.md in this folder documents each code.

import { pathErrorClass } from '../coded-error'

export const TailErrorCodes = {
  /** An option is unusable; `path` names it (`paths[1]`, `maxLineBytes`...). */
  INVALID_OPTION: 'LOGX_TAIL_ERR_INVALID_OPTION',
  /** The checkpoint file exists but cannot be read or parsed; `path` is the file. */
  CHECKPOINT_READ: 'LOGX_TAIL_ERR_CHECKPOINT_READ',
  /** The checkpoint file was written by an unknown format version; `path` is the file. */
  CHECKPOINT_VERSION: 'LOGX_TAIL_ERR_CHECKPOINT_VERSION',
  /** Writing the checkpoint (temp file, fsync, rename) failed; the commit is not durable. */
  CHECKPOINT_WRITE: 'LOGX_TAIL_ERR_CHECKPOINT_WRITE',
  /** A watched file could not be opened, stat'ed or read; the tailer skips it and goes on. */
  FILE_READ: 'LOGX_TAIL_ERR_FILE_READ',
  /** The directory watcher reported an error (permissions, too many watches). */
  WATCH: 'LOGX_TAIL_ERR_WATCH',
  /** File events came faster than they can be handled: the directories are polled for a while instead. */
  EVENT_FLOOD: 'LOGX_TAIL_ERR_EVENT_FLOOD',
  /**
   * A matching path resolves (through a symlink) outside what followSymlinks allows: it is not read;
   * warned once per path and target, `path` is the link.
   */
  SYMLINK_REFUSED: 'LOGX_TAIL_ERR_SYMLINK_REFUSED',
  /** commit() was given something that is not a batch of this tailer. */
  FOREIGN_BATCH: 'LOGX_TAIL_ERR_FOREIGN_BATCH',
  /** The tailer is closed. */
  CLOSED: 'LOGX_TAIL_ERR_CLOSED',
} as const

export type TailErrorCode = (typeof TailErrorCodes)[keyof typeof TailErrorCodes]

export class TailError extends pathErrorClass<TailErrorCode>('TailError', 'logx.tail.error') {}
