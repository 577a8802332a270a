// The fleet's shared state on Redis (issue 16): what makes several agents page as one. The daemon
// creates one Cluster when `cluster:` is configured; nothing here is loaded otherwise (the Redis
// client is required lazily by redis-connection.ts). README.md has the key layout and the promises.
import type { Acknowledgement, Actor, NoticeKind } from '../../alerts'
import type { SharedLeads } from '../delivery/lead-map'
import type { RuntimeSilence } from '../delivery/runtime-silences'

export type { ClusterConfig } from '../config/types'
export { createCluster } from './cluster'
export type { ClusterOptions } from './cluster'
export { ClusterError, ClusterErrorCodes } from './errors'
export type { ClusterErrorCode } from './errors'
export { idempotencyKey } from './keys'

/** One outbox item of a fleet agent: what is claimed in Redis before it is sent. */
export interface FleetNotice {
  /** The incident's key. */
  incident: string
  /** 'record': a CRM record item; its step names the activity. */
  kind: NoticeKind | 'record'
  /** The escalation step number as text, the action id, or the activity's kind+index. */
  step: string
  /** The channel's name, or 'logx.incident'. */
  channel: string
  /** Index of the request among the notice's requests on this channel. */
  part: number
  /** Repeat only: the claim of a sent repeat lives this long (one repeat per interval, fleet-wide). */
  repeatMs?: number
  /**
   * The same for any kind that comes back while an incident is open (agent/delivery/fleet-gate.ts
   * names it so): with it, the notice is claimed as a repeat is (no generation, no step).
   */
  windowMs?: number
  /** The local engine's firedAt: the seed of the idempotency key when Redis is unreachable. */
  firedAt: number
}

export type Claim =
  | { outcome: 'won'; idempotencyKey: string; failover: boolean }
  | { outcome: 'done'; by: string }
  | { outcome: 'held'; by: string; retryAfterMs: number }
  | { outcome: 'acked'; by: string; ack: Acknowledgement | undefined }
  | { outcome: 'degraded'; idempotencyKey: string; reason: string }

/** Lines of one incident seen by this agent since the last flush. */
export interface IncidentDelta {
  rule: string
  title: string
  count: number
  first: number
  last: number
  /** A threshold rule's window: the fleet's lines within it are counted (FleetSeen.windowCount). */
  windowMs?: number
}

/** After a flush: the fleet's view of an incident this agent flushed. */
export interface FleetSeen {
  key: string
  /** The latest line of the incident on any host (epoch ms, as the hosts stamped them). */
  last: number
  /** With windowMs: the fleet's lines within the window ending at `last`; without: the fleet's count. */
  windowCount: number
}

export type SharedAction =
  | { type: 'ack' | 'unack' | 'resolve'; key: string; actor: Actor; at: number }
  | { type: 'silence'; silence: RuntimeSilence; at: number }
  | { type: 'expire-silence'; silenceId: string; at: number }

/** What onAction hands over: `id` is the action's id (the step of the notices it makes), `agent` who made it. */
export type ReceivedAction = SharedAction & { id: string; agent: string }

export interface FleetIncident {
  key: string
  rule: string
  title: string
  count: number
  first: number
  last: number
  status: string | undefined
  ack: { by: string; via: string; at: number } | undefined
  hosts: { agent: string; count: number; last: number }[]
}

export interface Peer {
  agent: string
  host: string
  pid: number
  started: number
  lastSeen: number
}

export interface ClusterStatus {
  status: 'up' | 'degraded'
  reason: string | undefined
  since: number
}

export interface ClusterStats {
  status: 'up' | 'degraded'
  peers: number
  claimsWon: number
  claimsLost: number
  claimsHeld: number
  failovers: number
  acked: number
  degradedSends: number
  merged: number
  degradedEpisodes: number
  reconnects: number
}

export interface Cluster {
  readonly agentId: string
  /** One lead per incident across the fleet (fleet-leads.ts). */
  readonly leads: SharedLeads
  /** Connects. Rejects only with LOGX_CLUSTER_ERR_AUTH; an unreachable Redis starts degraded. */
  start(): Promise<void>
  status(): ClusterStatus
  claim(n: FleetNotice): Promise<Claim>
  /** Never rejects. */
  sent(n: FleetNotice, claim: Claim): Promise<void>
  /** Buffered, never throws. */
  observe(key: string, delta: IncidentDelta): void
  /** After each flush. */
  onFleetSeen(handler: (seen: FleetSeen[]) => void): void
  /**
   * Never rejects; kept and sent on reconnect when Redis is down. `id` (optional, generated when
   * absent) lets the publisher use the same id as step of its own notices as the others will.
   */
  publish(action: SharedAction & { id?: string }): Promise<void>
  /** Other agents' actions only, in stream order. */
  onAction(handler: (action: ReceivedAction) => void): void
  /** The run-time silences in force. */
  silences(): Promise<RuntimeSilence[]>
  /** Fleet-wide, most recently seen first. */
  incidents(limit: number): Promise<FleetIncident[]>
  peers(): Promise<Peer[]>
  stats(): ClusterStats
  close(): Promise<void>
}
