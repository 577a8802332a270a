// The fleet's types: what the daemon and the cluster's own files name (a leaf: it imports nothing of
// this folder, so no file here reaches another through index.ts). The notification log's notice and
// claim are the alert path's (agent/delivery/fleet/types.ts): every agent names a notice alike.
import type { FleetSeen as EngineFleetSeen } from '../../alerts'
import type { Claim, FleetNotice, PeopleAction } from '../delivery/fleet/types'
import type { SharedLeads } from '../delivery/record/lead-map'
import type { RuntimeSilence } from '../incidents/runtime-silences'
import type { KindEntry } from '../../alerts/kinds/types'
import type { KeptKinds } from '../kinds/kept-kinds'
import type { KindStore } from '../kinds/types'

export type { Claim, FleetNotice } from '../delivery/fleet/types'
export type { ClusterConfig } from '../config/types'

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

/**
 * After a flush: the fleet's view of an incident this agent flushed, for the engine (alerts/'
 * seenElsewhere). With a threshold window, `windowCount` is the fleet's lines within the window
 * ending at `last`; without, the fleet's count.
 */
export type FleetSeen = EngineFleetSeen & { key: string }

/** What a person did, as every agent takes it (agent/acknowledge/incident-actions.ts). */
export type SharedAction = PeopleAction

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

export interface FleetKindsStats {
  claims: { won: number; known: number; degraded: number }
  published: number
  merged: number
}

export interface FleetKinds {
  /** A kind this agent met first: claimed on Redis (never rejects, never waits the line path). */
  claim(entry: KindEntry): void
  /** This agent's counts published, the others' merged into `kept`; the cursor kept in `store`. */
  exchange(kept: KeptKinds, store: Pick<KindStore, 'fleetCursor' | 'setFleetCursor'>, now: number): Promise<void>
  stats(): FleetKindsStats
}

export interface Cluster {
  readonly agentId: string
  /** The fleet's kinds: claims of new kinds, counts exchanged (fleet-kinds.ts). */
  readonly kinds: FleetKinds
  /** One lead per incident across the fleet (fleet-leads.ts). */
  readonly leads: SharedLeads
  /** Connects. Rejects only with LOGX_CLUSTER_ERR_AUTH; an unreachable Redis starts degraded. */
  start(): Promise<void>
  status(): ClusterStatus
  /** How long a won claim holds (cluster.lease). */
  readonly leaseMs: number
  claim(n: FleetNotice): Promise<Claim>
  /** Never rejects; announced to every agent (onSent). */
  sent(n: FleetNotice, claim: Claim): Promise<void>
  /** Each notice an agent marks sent, by noticeIdOf (pub/sub: best effort). */
  onSent(handler: (noticeId: string) => void): void
  /** Announcements are being received. */
  listening(): boolean
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
