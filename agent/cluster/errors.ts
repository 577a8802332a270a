// Cluster errors with stable codes, never reused or renamed. Across a process boundary match on
// `code`, not on the class. README.md in this folder documents each code. A message never holds the
// password or the TLS key: it names the config key that holds them instead.

import { CodedError } from '../coded-error'

export const ClusterErrorCodes = {
  /** Redis refused the user or the password (WRONGPASS, NOAUTH, NOPERM) at start: the agent exits. */
  AUTH: 'LOGX_CLUSTER_ERR_AUTH',
  /** A TLS file named by cluster.redis.tls cannot be read or used. */
  TLS: 'LOGX_CLUSTER_ERR_TLS',
  /** A Redis answer this module does not understand (a key written by something else, a newer layout). */
  PROTOCOL: 'LOGX_CLUSTER_ERR_PROTOCOL',
} as const

export type ClusterErrorCode = (typeof ClusterErrorCodes)[keyof typeof ClusterErrorCodes]

export class ClusterError extends CodedError<ClusterErrorCode> {
  static override readonly brand = Symbol.for('logx.cluster.error')

  constructor(code: ClusterErrorCode, message: string, options: { cause?: unknown } = {}) {
    super('ClusterError', code, message, options.cause)
  }
}
