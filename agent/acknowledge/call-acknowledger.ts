// Missed calls, each used once: the caller's number names a person, and the call acknowledges what
// was paged to them before it was made (one incident, or all of theirs with `ack_all`). The call's id
// is written with the incident state, so a call offered again (after a crash) is counted and dropped.
import type { Actor } from '../../alerts'
import type { AlertPipeline, DeliveryLog } from '../delivery/types'
import type { IncidentState } from '../incidents/incident-state'
import { callAckTime } from './action-rules'
import type { MissedCall, MissedCallStats } from './types'

export interface CallAcknowledger {
  acknowledge(call: MissedCall, now: number): void
  setCallers(personOf: (caller: string) => string | undefined, ackAll: boolean): void
  readonly stats: MissedCallStats
}

export function createCallAcknowledger(
  pipeline: AlertPipeline,
  state: IncidentState,
  log: DeliveryLog,
): CallAcknowledger {
  let personOf: (caller: string) => string | undefined = () => undefined
  let ackAll = false
  const stats: MissedCallStats = { acknowledged: 0, unknownCaller: 0, nothingOpen: 0, repeated: 0 }

  function acknowledge(call: MissedCall, now: number): void {
    if (state.usedCall(call.id)) {
      stats.repeated++
      return
    }
    state.useCall(call.id)
    const person = personOf(call.caller)
    if (person === undefined) {
      stats.unknownCaller++
      log.info({ call: call.id, caller: call.caller }, 'missed call from a number no person has: nothing acknowledged')
      state.save()
      return
    }
    const at = callAckTime(call.at, now)
    const actor: Actor = { by: person, via: 'missed_call', detail: `missed call from ${call.caller}` }
    const keys = pipeline.change(now, (engine) => {
      const result = engine.acknowledgeFor(person, actor, at, ackAll)
      return { deliveries: result.deliveries, result: result.keys }
    })
    if (keys.length === 0) {
      stats.nothingOpen++
      // The call's id went with the write the change above made.
      log.info(
        { call: call.id, person },
        `missed call from ${person}: nothing firing and unacknowledged was paged to them`,
      )
      return
    }
    stats.acknowledged++
    log.info({ call: call.id, person, incidents: keys }, `acknowledged by a missed call from ${person}`)
  }

  return {
    acknowledge,
    setCallers(lookup, all) {
      personOf = lookup
      ackAll = all
    },
    stats,
  }
}
