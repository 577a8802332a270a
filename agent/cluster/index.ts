// The fleet's shared state on Redis (issue 16): what makes several agents page as one. The daemon
// creates one Cluster when `cluster:` is configured; nothing here is loaded otherwise (the Redis
// client is required lazily by redis-connection.ts). README.md has the key layout and the promises.
// Re-exports only: the types live in types.ts, which the folder's own files import.
export type {
  Claim,
  Cluster,
  ClusterConfig,
  ClusterStats,
  ClusterStatus,
  FleetIncident,
  FleetNotice,
  FleetSeen,
  IncidentDelta,
  Peer,
  ReceivedAction,
  SharedAction,
} from './types'
export { createCluster } from './cluster'
export type { ClusterOptions } from './cluster'
export { ClusterError, ClusterErrorCodes } from './errors'
export type { ClusterErrorCode } from './errors'
export { idempotencyKey } from './keys'
