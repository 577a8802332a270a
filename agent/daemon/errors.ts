// Daemon errors with stable codes, never reused. The CLI prints `message` and exits 1 on any of them.

import { codedErrorClass } from '../coded-error'

export const DaemonErrorCodes = {
  /** Another agent holds the single-instance lock of the state directory. */
  LOCKED: 'LOGX_DAEMON_ERR_LOCKED',
  /** The state directory or a state file in it cannot be used. */
  STATE: 'LOGX_DAEMON_ERR_STATE',
  /** The metrics server cannot listen. */
  LISTEN: 'LOGX_DAEMON_ERR_LISTEN',
  /** A source cannot be tailed (bad glob, unreadable checkpoint). */
  SOURCE: 'LOGX_DAEMON_ERR_SOURCE',
  /** The --tap file cannot be opened. */
  TAP: 'LOGX_DAEMON_ERR_TAP',
} as const

export type DaemonErrorCode = (typeof DaemonErrorCodes)[keyof typeof DaemonErrorCodes]

export class DaemonError extends codedErrorClass<DaemonErrorCode>('DaemonError', 'logx.daemon.error') {}
