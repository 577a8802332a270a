// What people do to incidents, on the one alert path: acknowledge, unacknowledge and resolve by hand
// (the console, the command line), acknowledge by missed call, and silences made at run time. Each
// change runs on the engine through the pipeline, so what it sends (the CRM activity saying who, how
// and when; a re-page) is journaled like every notice, and the incident state keeps it across a
// restart or a SIGKILL. A missed call is used once: its id is written with the acknowledgement
// (call-acknowledger.ts); silences are silence-actions.ts; what an action means is action-rules.ts;
// resolves by an alert's sender, shared with the fleet like a resolve by hand, are source-resolves.ts.
import type { AckOutcome, Actor, AlertEngine } from '../../alerts'
import type { AlertPipeline, DeliveryLog } from '../delivery/types'
import type { IncidentState } from '../incidents/incident-state'
import type { RuntimeSilences } from '../incidents/runtime-silences'
import { doneWord, keyNamed, refusal } from './action-rules'
import { createCallAcknowledger } from './call-acknowledger'
import { createSilenceActions } from './silence-actions'
import { createSourceResolves } from './source-resolves'
import type { IncidentActions, ManualAction, PeopleAction } from './types'

export type { ActionOutcome, IncidentActions, ManualAction, MissedCallStats, PeopleAction } from './types'

export interface IncidentActionsOptions {
  pipeline: AlertPipeline
  state: IncidentState
  silences: RuntimeSilences
  log: DeliveryLog
}

function onEngine(engine: AlertEngine, action: ManualAction, key: string, actor: Actor, at: number): AckOutcome {
  if (action === 'ack') return engine.acknowledge(key, actor, at)
  if (action === 'unack') return engine.unacknowledge(key, actor, at)
  return engine.resolve(key, actor, at)
}

export function createIncidentActions(options: IncidentActionsOptions): IncidentActions {
  const { pipeline, state, log } = options
  const calls = createCallAcknowledger(pipeline, state, log)
  const silences = createSilenceActions(pipeline, options.silences, log)
  let shared: (action: PeopleAction) => void = () => {}
  const sourceResolves = createSourceResolves(pipeline, state, (action) => shared(action))
  const manual: Record<string, number> = {}

  function act(key: string, action: ManualAction, actor: Actor, now: number): ReturnType<IncidentActions['act']> {
    const before = pipeline.incident(key)
    const outcome = pipeline.change(now, (engine) => {
      const result = onEngine(engine, action, key, actor, now)
      return { deliveries: result.ok ? result.deliveries : [], result }
    })
    if (!outcome.ok) return refusal(outcome, before)
    // A pending incident resolves without a notice (nobody was paged): its waiting line must not be replayed.
    if (action === 'resolve') state.resolved(key)
    manual[`${action}:${actor.via}`] = (manual[`${action}:${actor.via}`] ?? 0) + 1
    log.info({ incident: key, by: actor.by, via: actor.via }, `incident ${doneWord(action)} by ${actor.by}`)
    shared({ type: action, key, actor, at: now })
    return { ok: true, incident: pipeline.incident(key) ?? outcome.incident, resolved: action === 'resolve' }
  }

  function applyShared(action: PeopleAction, now: number): void {
    if (action.type === 'silence') return silences.put(action.silence, now)
    if (action.type === 'expire-silence') return silences.remove(action.silenceId, now)
    if (action.type === 'source-resolve') return sourceResolves.applyShared(action, now)
    const { key, actor, at } = action
    // Its time is the fleet's: an ack_timeout counts from when it was acknowledged, wherever.
    const outcome = pipeline.change(now, (engine) => ({
      deliveries: [],
      result: onEngine(engine, action.type, key, actor, at),
    }))
    if (!outcome.ok) return
    if (action.type === 'resolve') state.resolved(key)
    const by = `incident ${doneWord(action.type)} by ${actor.by} on another agent`
    log.info({ incident: key, by: actor.by, via: actor.via }, by)
  }

  return {
    find(id) {
      const exact = pipeline.incident(id)
      if (exact !== undefined) return exact
      const key = keyNamed(
        id,
        pipeline.incidentViews().map((view) => view.key),
      )
      return key === undefined || key === 'ambiguous' ? key : pipeline.incident(key)
    },
    act,
    missedCalls(list, now) {
      for (const call of list) calls.acknowledge(call, now)
    },
    silences: (now) => options.silences.list(now),
    addSilence(request, now) {
      const added = silences.add(request, now)
      if (added.ok) shared({ type: 'silence', silence: added.silence, at: now })
      return added
    },
    expireSilence(id, now) {
      const removed = silences.expire(id, now)
      if (removed !== undefined) shared({ type: 'expire-silence', silenceId: id, at: now })
      return removed
    },
    sourceResolved: (resolve, now) => sourceResolves.resolve({ type: 'source-resolve', ...resolve }, now),
    staleFiring: (key, startedAt, now) => sourceResolves.staleFiring(key, startedAt, now),
    rememberedResolves: () => sourceResolves.remembered(),
    setCallers: (personOf, ackAll) => calls.setCallers(personOf, ackAll),
    applyShared,
    onAction(listener) {
      shared = listener
    },
    stats: () => ({ manual: { ...manual }, missedCalls: { ...calls.stats } }),
  }
}
