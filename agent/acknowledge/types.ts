// The types others import of what people do to incidents: the daemon, the console and the fleet
// (agent/cluster) speak them. A leaf: it imports types only, from lower floors.
import type { Actor, IncidentSnapshot } from '../../alerts'
import type { ManualAction, PeopleAction } from '../delivery/fleet/types'
import type { RuntimeSilence, SilenceRequest } from '../incidents/runtime-silences'
import type { MissedCall } from './missed-calls-cursor'

export type { ManualAction, PeopleAction } from '../delivery/fleet/types'
export type { MissedCall } from './missed-calls-cursor'

export type ActionOutcome =
  { ok: true; incident: IncidentSnapshot; resolved: boolean } | { ok: false; status: 404 | 409; error: string }

export interface MissedCallStats {
  /** Calls that acknowledged at least one incident. */
  acknowledged: number
  /** From a number no person has. */
  unknownCaller: number
  /** From a person with nothing firing and unacknowledged paged to them. */
  nothingOpen: number
  /** Offered again (a poll repeated after a crash): already used. */
  repeated: number
}

export interface IncidentActions {
  /** An incident by its key, or a unique start of its key or of its hash (4 characters at least). */
  find(id: string): IncidentSnapshot | 'ambiguous' | undefined
  act(key: string, action: ManualAction, actor: Actor, now: number): ActionOutcome
  missedCalls(calls: readonly MissedCall[], now: number): void
  silences(now: number): RuntimeSilence[]
  addSilence(request: SilenceRequest, now: number): { ok: true; silence: RuntimeSilence } | { ok: false; error: string }
  expireSilence(id: string, now: number): RuntimeSilence | undefined
  /**
   * An alert's sender said `key` ended (source-resolves.ts): resolved here if open, remembered, and
   * shared with the fleet so the agent holding it resolves it; true when it was open here.
   */
  sourceResolved(resolve: { key: string; notify: boolean; endedAt: number; at: number }, now: number): boolean
  /** A firing of `key` whose alert started at `startedAt` is one a remembered resolve ended (resolved-memory.ts). */
  staleFiring(key: string, startedAt: number | undefined, now: number): boolean
  /** How many such resolves are remembered. */
  rememberedResolves(): number
  /** Whom a missed call's number belongs to, and whether one call acknowledges all of theirs. */
  setCallers(personOf: (caller: string) => string | undefined, ackAll: boolean): void
  /**
   * What a person did on another agent of the fleet, taken here without sending anything (that agent
   * sent its notices): the incident's status and the silences are the fleet's, not this agent's.
   */
  applyShared(action: PeopleAction, now: number): void
  /** Called with what a person does here (after it is done), for the other agents of a fleet. */
  onAction(listener: (action: PeopleAction) => void): void
  stats(): { manual: Record<string, number>; missedCalls: MissedCallStats }
}

export interface MissedCallPollerStats {
  polls: number
  /** Calls handed to onCalls (and saved as seen). */
  calls: number
  /** Calls to another number than calledNumber. */
  ignored: number
  errors: number
  lastError: string | undefined
  lastPollAt: number | undefined
}

export interface MissedCallPoller {
  /** Polls now, then every interval. */
  start(): void
  /** One poll after any in flight; never rejects (a failure is counted and logged). */
  pollNow(): Promise<{ calls: number; pages: number }>
  /** No more polls; resolves when the one in flight is over. */
  stop(): Promise<void>
  stats(): MissedCallPollerStats
}
