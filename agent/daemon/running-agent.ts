// What a started agent is made of, as start (agent.ts) assembled it and reload and stop use it.
// A leaf of types: start, reload and stop import it, and it imports none of them.
import type { AgentConfig } from '../config/types'
import type { AlertPath } from '../acknowledge/with-actions'
import type { AlertSetup } from '../delivery/types'
import type { AgentCounters } from './agent-metrics'
import type { DigestSender } from './digest'
import type { Fleet } from './fleet'
import type { InstanceLock } from './instance-lock'
import type { AgentKinds } from './kinds'
import type { AgentLogger } from './logger'
import type { MessagingEndpoint } from './messaging-endpoint'
import type { MetricsEndpoint } from './metrics-endpoint'
import type { MissedCallAcks } from './missed-call-acks'
import type { SourceReaders } from './source-readers'

export interface RunningAgent {
  /** The config that runs: a reload replaces it, keeping what needs a restart. */
  config: AgentConfig
  readonly log: AgentLogger
  readonly now: () => number
  readonly lock: InstanceLock
  readonly readers: SourceReaders
  readonly endpoint: MessagingEndpoint
  readonly fleet: Fleet | undefined
  readonly path: AlertPath
  readonly acks: MissedCallAcks
  readonly metrics: MetricsEndpoint
  /** The engine's clock (group_wait, repeat, escalation, resolve). */
  readonly clock: NodeJS.Timeout
  /** The digest's schedule (`digest:`): planned again on a reload. */
  readonly digest: DigestSender
  readonly counters: AgentCounters
  /** The alert path's rules, channels and silences of a config (loaded with the alert path). */
  readonly setupOf: (config: AgentConfig) => AlertSetup
  /** The kind table kept in state_dir (issue #29): `kinds.entries()` for the console and the digest. */
  readonly kinds: AgentKinds
}

export interface StopResult {
  drained: boolean
  pending: number
}
