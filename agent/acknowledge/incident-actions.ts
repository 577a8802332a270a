// What people do to incidents, on the one alert path: acknowledge, unacknowledge and resolve by hand
// (the console, the command line), acknowledge by missed call, and silences made at run time. Each
// change runs on the engine through the pipeline, so what it sends (the CRM activity saying who, how
// and when; a re-page) is journaled like every notice, and the incident state keeps it across a
// restart or a SIGKILL. A missed call is used once: its id is written with the acknowledgement.
import type { AckOutcome, Actor, AlertEngine, IncidentSnapshot } from '../../alerts'
import type { AlertPipeline } from '../delivery/alert-pipeline'
import type { DeliveryLog } from '../delivery/dispatcher'
import type { IncidentState } from '../incidents/incident-state'
import type { MissedCall } from './missed-calls'
import type { RuntimeSilence, RuntimeSilences, SilenceRequest } from '../incidents/runtime-silences'

export type ManualAction = 'ack' | 'unack' | 'resolve'

/** What a person did, as the other agents of a fleet take it (agent/cluster shares it). */
export type PeopleAction =
  | { type: ManualAction; key: string; actor: Actor; at: number }
  | { type: 'silence'; silence: RuntimeSilence; at: number }
  | { type: 'expire-silence'; silenceId: string; at: number }

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

export interface IncidentActionsOptions {
  pipeline: AlertPipeline
  state: IncidentState
  silences: RuntimeSilences
  log: DeliveryLog
}

const MIN_PREFIX = 4

const done = (action: ManualAction): string =>
  action === 'ack' ? 'acknowledged' : action === 'unack' ? 'unacknowledged' : 'resolved'

function refusal(
  outcome: Extract<AckOutcome, { ok: false }>,
  incident: IncidentSnapshot | undefined,
): { ok: false; status: 404 | 409; error: string } {
  switch (outcome.reason) {
    case 'unknown':
      return { ok: false, status: 404, error: 'no such open incident' }
    case 'pending':
      return {
        ok: false,
        status: 409,
        error: 'the incident is still pending (group_wait or threshold): nobody was paged yet',
      }
    case 'already-acknowledged': {
      const ack = incident?.ack
      return {
        ok: false,
        status: 409,
        error:
          ack === undefined
            ? 'already acknowledged'
            : `already acknowledged by ${ack.by} (${ack.via.replace('_', ' ')}) at ${new Date(ack.at).toISOString()}`,
      }
    }
    case 'not-acknowledged':
      return { ok: false, status: 409, error: 'the incident is not acknowledged' }
  }
}

export function createIncidentActions(options: IncidentActionsOptions): IncidentActions {
  const { pipeline, state, silences, log } = options
  let personOf: (caller: string) => string | undefined = () => undefined
  let ackAll = false
  let shared: (action: PeopleAction) => void = () => {}
  const manual: Record<string, number> = {}
  const calls: MissedCallStats = { acknowledged: 0, unknownCaller: 0, nothingOpen: 0, repeated: 0 }

  const run = (now: number, act: (engine: AlertEngine) => AckOutcome): AckOutcome =>
    pipeline.change(now, (engine) => {
      const outcome = act(engine)
      return { deliveries: outcome.ok ? outcome.deliveries : [], result: outcome }
    })

  function missedCall(call: MissedCall, now: number): void {
    if (state.usedCall(call.id)) {
      calls.repeated++
      return
    }
    state.useCall(call.id)
    const person = personOf(call.caller)
    if (person === undefined) {
      calls.unknownCaller++
      log.info({ call: call.id, caller: call.caller }, 'missed call from a number no person has: nothing acknowledged')
      state.save()
      return
    }
    // The call acknowledges what was paged before it was made, never a page that came after.
    const at = Math.min(call.at, now)
    const actor: Actor = { by: person, via: 'missed_call', detail: `missed call from ${call.caller}` }
    const keys = pipeline.change(now, (engine) => {
      const result = engine.acknowledgeFor(person, actor, at, ackAll)
      return { deliveries: result.deliveries, result: result.keys }
    })
    if (keys.length === 0) {
      calls.nothingOpen++
      // The call's id went with the write the change above made.
      log.info(
        { call: call.id, person },
        `missed call from ${person}: nothing firing and unacknowledged was paged to them`,
      )
      return
    }
    calls.acknowledged++
    log.info({ call: call.id, person, incidents: keys }, `acknowledged by a missed call from ${person}`)
  }

  return {
    find(id) {
      const exact = pipeline.incident(id)
      if (exact !== undefined) return exact
      if (id.length < MIN_PREFIX) return undefined
      // A key is `<rule>:<hash>`: the start of either names it (the short id is the hash's).
      let found: string | undefined
      for (const { key } of pipeline.incidentViews()) {
        if (!key.startsWith(id) && !key.startsWith(id, key.lastIndexOf(':') + 1)) continue
        if (found !== undefined) return 'ambiguous'
        found = key
      }
      return found === undefined ? undefined : pipeline.incident(found)
    },
    act(key, action, actor, now) {
      const before = pipeline.incident(key)
      const outcome = run(now, (engine) =>
        action === 'ack'
          ? engine.acknowledge(key, actor, now)
          : action === 'unack'
            ? engine.unacknowledge(key, actor, now)
            : engine.resolve(key, actor, now),
      )
      if (!outcome.ok) return refusal(outcome, before)
      // A pending incident resolves without a notice (nobody was paged): its waiting line must not be replayed.
      if (action === 'resolve') state.resolved(key)
      manual[`${action}:${actor.via}`] = (manual[`${action}:${actor.via}`] ?? 0) + 1
      log.info({ incident: key, by: actor.by, via: actor.via }, `incident ${done(action)} by ${actor.by}`)
      shared({ type: action, key, actor, at: now })
      return { ok: true, incident: pipeline.incident(key) ?? outcome.incident, resolved: action === 'resolve' }
    },
    missedCalls(list, now) {
      for (const call of list) missedCall(call, now)
    },
    silences: (now) => silences.list(now),
    addSilence(request, now) {
      const added = silences.add(request, now)
      if (!added.ok) return added
      const { silence } = added
      pipeline.change(now, (engine) => {
        const [config] = silences.configs(now).filter((s) => s.id === silence.id)
        if (config !== undefined) engine.addSilence(config, now)
        return { deliveries: [], result: undefined }
      })
      log.info(
        {
          silence: silence.id,
          matchers: silence.matchers,
          until: new Date(silence.endsAt).toISOString(),
          by: silence.createdBy,
        },
        'silence added',
      )
      shared({ type: 'silence', silence, at: now })
      return added
    },
    expireSilence(id, now) {
      const removed = silences.remove(id)
      if (removed === undefined) return undefined
      pipeline.change(now, (engine) => ({ deliveries: [], result: engine.removeSilence(id) }))
      log.info({ silence: id }, 'silence expired by hand')
      shared({ type: 'expire-silence', silenceId: id, at: now })
      return removed
    },
    setCallers(lookup, all) {
      personOf = lookup
      ackAll = all
    },
    applyShared(action, now) {
      if (action.type === 'silence') {
        silences.put(action.silence)
        const [config] = silences.configs(now).filter((s) => s.id === action.silence.id)
        if (config !== undefined)
          pipeline.change(now, (engine) => ({ deliveries: [], result: engine.addSilence(config, now) }))
        return
      }
      if (action.type === 'expire-silence') {
        if (silences.remove(action.silenceId) !== undefined)
          pipeline.change(now, (engine) => ({ deliveries: [], result: engine.removeSilence(action.silenceId) }))
        return
      }
      const { key, actor, at } = action
      // Its time is the fleet's: an ack_timeout counts from when it was acknowledged, wherever.
      const outcome = pipeline.change(now, (engine) => {
        const result =
          action.type === 'ack'
            ? engine.acknowledge(key, actor, at)
            : action.type === 'unack'
              ? engine.unacknowledge(key, actor, at)
              : engine.resolve(key, actor, at)
        return { deliveries: [], result }
      })
      if (outcome.ok && action.type === 'resolve') state.resolved(key)
      if (outcome.ok)
        log.info(
          { incident: key, by: actor.by, via: actor.via },
          `incident ${done(action.type)} by ${actor.by} on another agent`,
        )
    },
    onAction(listener) {
      shared = listener
    },
    stats: () => ({ manual: { ...manual }, missedCalls: { ...calls } }),
  }
}
