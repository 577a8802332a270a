// Cluster errors with stable codes, never reused or renamed. Across a process boundary match on
// `code`, not on the class. README.md in this folder documents each code. A message never holds the
// password or the TLS key: it names the config key that holds them instead.

import { codedErrorClass } from '../coded-error'

export const ClusterErrorCodes = {
  /** Redis refused the user or the password (WRONGPASS, NOAUTH, NOPERM) at start: the agent exits. */
  AUTH: 'LOGX_CLUSTER_ERR_AUTH',
  /** A TLS file named by cluster.redis.tls cannot be read or used. */
  TLS: 'LOGX_CLUSTER_ERR_TLS',
  /** A Redis answer this module does not understand (a key written by something else, a newer layout). */
  PROTOCOL: 'LOGX_CLUSTER_ERR_PROTOCOL',
} as const

export type ClusterErrorCode = (typeof ClusterErrorCodes)[keyof typeof ClusterErrorCodes]

export class ClusterError extends codedErrorClass<ClusterErrorCode>('ClusterError', 'logx.cluster.error') {}
