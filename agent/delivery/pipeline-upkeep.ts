// What the pipeline keeps besides its engine: the incidents waiting out group_wait made lines again
// for a new engine, the keys absence rules watch written to the incident state now and then, and
// the incidents dropped to stay within bounds, counted across engines and said once per tick.
import { RULE_ANNOTATION, type AlertEngine, type AlertLine } from '../../alerts'
import type { IncidentState } from '../incidents/incident-state'
import { lineOfKept } from '../incidents/kept-line'
import type { DeliveryLog } from './types'

/**
 * Incidents that were waiting out group_wait when the previous engine stopped, to start over in a
 * new one. Their lines are kept censored, so a rule matching a redacted field would not select them
 * again: the rule that took them is named on the replayed line.
 */
export function pendingLines(state: IncidentState): AlertLine[] {
  return state.pending().map((p) => {
    const line = lineOfKept({
      raw: p.raw,
      format: p.format === 'json' ? 'json' : 'text',
      source: p.source,
      ...(p.fields === undefined ? {} : { fields: p.fields }),
    })
    return line.json ? { ...line, record: { ...line.record, [RULE_ANNOTATION]: p.rule } } : line
  })
}

/**
 * What the state keeps of the keys absence rules watch: written when the set of keys changed, and
 * at least once a minute (their last-seen times then; they only matter after a reload, not a restart).
 */
export function createAbsenceRecord(state: IncidentState): {
  record(engine: AlertEngine, now: number, force?: boolean): void
} {
  let keys = -1
  let at = 0
  return {
    record(engine, now, force = false) {
      const { absenceKeys, absenceEvicted } = engine.stats()
      const count = absenceKeys + absenceEvicted
      if (!force && count === keys && now - at < 60_000) return
      if (absenceKeys === 0 && keys <= 0 && !force) return
      keys = count
      at = now
      state.setAbsence(engine.absenceState())
    },
  }
}

/** Incidents dropped to stay within the bounds, across the engines reloads replaced; said once per tick. */
export function createEvictionLog(log: DeliveryLog): {
  replaced(engine: AlertEngine): void
  total(engine: AlertEngine, state: IncidentState): number
  report(engine: AlertEngine, state: IncidentState): void
} {
  let before = 0
  let logged = 0
  const total = (engine: AlertEngine, state: IncidentState): number => before + engine.stats().evicted + state.dropped
  return {
    replaced(engine) {
      before += engine.stats().evicted
    },
    total,
    report(engine, state) {
      const now = total(engine, state)
      if (now === logged) return
      log.warn(
        { evicted: now - logged, total: now, open: engine.stats().openIncidents },
        'too many open incidents: the least recently seen were dropped (at most 10000 are held)',
      )
      logged = now
    },
  }
}
