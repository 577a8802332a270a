// The sink every intake hands its events to: the one alert path (the same rules, incidents and
// outbox as a tailed file), then the outbox's fsync. accept() resolves only once what the events
// made is on disk, so the sender's 2xx (or TCP read) promises nothing a SIGKILL could take back.
//
// 1. Past the outbox's bound (`maxQueued` notifications waiting), accept() takes nothing and rejects
//    with IntakeBusyError: the sender retries after `retryAfterSeconds`, and memory does not grow.
// 2. An event that `resolves` ends its incident (alertmanager/end-incident.ts); any other goes
//    through the pipeline as a tailed line does, unless it is a late firing of a resolved alert.
// 3. The events of one accept() are handled in order at one `now`, then one fsync covers them all;
//    concurrent accept() calls share fsyncs (dispatcher.syncAsync()).
// 4. A failure of the alert path (a state write) rejects: the sender gets a 5xx and sends again.
import type { AlertPipeline, Dispatcher } from '../delivery/types'
import type { IncidentState } from '../incidents/incident-state'
import { endIncident, staleFiring, type IntakeResolver } from './alertmanager/end-incident'
import { IntakeBusyError } from './errors'
import type { IntakeEvent, IntakeSink } from './types'

export interface IntakeSinkOptions {
  pipeline: AlertPipeline
  dispatcher: Pick<Dispatcher, 'stats' | 'syncAsync'>
  state: IncidentState
  /** Resolves shared with the fleet, and late firings of resolved alerts dropped (end-incident.ts). */
  resolver?: IntakeResolver | undefined
  now: () => number
  /** Rule 1: notifications waiting in the outbox at which the intake stops taking events. */
  maxQueued: number
  /** What a busy answer says to wait; default 5 s. */
  retryAfterSeconds?: number
}

export const DEFAULT_RETRY_AFTER_SECONDS = 5

export function createIntakeSink(options: IntakeSinkOptions): IntakeSink {
  const { pipeline, dispatcher, state, now } = options
  const retryAfter = options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS
  const busy = (): boolean => dispatcher.stats().depth >= options.maxQueued
  return {
    busy,
    lowestLevel: (source) => pipeline.lowestLevel(source),
    countPassed(source, count) {
      if (count > 0) pipeline.countLines(source, count, now())
    },
    async accept(events: readonly IntakeEvent[]) {
      if (busy()) throw new IntakeBusyError(retryAfter)
      const at = now()
      // Ratio rules divide by every event received (the batch is of one source).
      if (events.length > 0) pipeline.countLines(events[0]?.line.source, events.length, at)
      for (const event of events) {
        if (event.resolves === true) endIncident(pipeline, state, event, at, options.resolver)
        else if (!staleFiring(pipeline, options.resolver, event, at)) pipeline.ingest(event.line, at)
      }
      await dispatcher.syncAsync()
    },
  }
}
