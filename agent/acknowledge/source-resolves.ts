// Resolves an alert's sender made (Alertmanager's `resolved`, handed over by the intake), on the same
// fleet mechanism as a resolve by hand: the resolve is one action on the fleet's stream, keyed by the
// incident key, and every agent that holds the incident resolves it.
// 1. Here: the open incident resolves with no actor; its resolved notice is journaled like every notice,
//    so in a fleet its claim lets it go out once, whichever agents resolve it.
// 2. Whether or not it was open here, the resolve is remembered (resolved-memory.ts) and shared: the
//    agent the firing webhook reached may not be this one.
// 3. From another agent: rule 1 and the memory, and nothing shared again. Unlike a resolve by hand
//    (whose agent held the incident and sent its notice), the agent that heard the resolve may hold
//    nothing: the holder makes the notice, and the claim keeps it to one for the fleet.
import type { AlertPipeline } from '../delivery/types'
import type { IncidentState } from '../incidents/incident-state'
import { createResolvedMemory } from './resolved-memory'
import type { PeopleAction } from './types'

export type SourceResolve = Extract<PeopleAction, { type: 'source-resolve' }>

export interface SourceResolves {
  /** Rules 1, 2: true when an incident was open here. */
  resolve(action: SourceResolve, now: number): boolean
  /** Rule 3. */
  applyShared(action: SourceResolve, now: number): void
  /** resolved-memory.ts rule 2: a firing of an alert a remembered resolve ended. */
  staleFiring(key: string, startedAt: number | undefined, now: number): boolean
  remembered(): number
}

export function createSourceResolves(
  pipeline: AlertPipeline,
  state: IncidentState,
  share: (action: PeopleAction) => void,
): SourceResolves {
  const memory = createResolvedMemory()

  function resolveHere(action: SourceResolve, now: number): boolean {
    memory.remember(action.key, action.endedAt, now)
    const resolved = pipeline.change(now, (engine) => {
      const outcome = engine.resolve(action.key, undefined, now, action.notify)
      return { deliveries: outcome.ok ? outcome.deliveries : [], result: outcome.ok }
    })
    // A pending incident resolves without a notice: its waiting line must not be replayed at a restart.
    if (resolved) state.resolved(action.key)
    return resolved
  }

  return {
    resolve(action, now) {
      const resolved = resolveHere(action, now)
      share(action)
      return resolved
    },
    applyShared: (action, now) => void resolveHere(action, now),
    staleFiring: (key, startedAt, now) => memory.stale(key, startedAt, now),
    remembered: () => memory.size,
  }
}
