// The absence watch (absence.ts) joined to the incident table: a key's returning line resolves its
// incident (rule 4 there), a silent key opens one (rule 3), and one resolved by hand stops being
// watched (rule 5). Nothing here runs per line without an absence rule.
import { createAbsenceWatch, type AbsenceEntry, type AbsenceStats } from './absence'
import type { IncidentTable } from './incidents'
import type { AlertLine } from './line'
import type { IncidentSnapshot, Notice } from './notice'
import type { Rule } from './rule'

export interface AbsenceIncidents {
  readonly active: boolean
  /** The resolved notices of the absence incidents `line` ends; undefined (no array made) when none. */
  seen(line: AlertLine, now: number): Notice[] | undefined
  /** The notices of the absence incidents due now. */
  due(now: number): Notice[]
  /** After a resolve by hand: the key of an absence incident is no longer watched. */
  resolved(incident: IncidentSnapshot): void
  /** Absence incidents open, from the table (one restored without its watched key counts too). */
  open(): number
  state(): AbsenceEntry[]
  restore(state: readonly AbsenceEntry[], resumedAt: number): number
  stats(): AbsenceStats
}

export function createAbsenceIncidents(
  rules: readonly Rule[],
  byName: ReadonlyMap<string, Rule>,
  incidents: IncidentTable,
  options: { maxKeys: number | undefined; clean(line: AlertLine): AlertLine },
): AbsenceIncidents {
  const watch = createAbsenceWatch(rules, {
    maxKeys: options.maxKeys,
    isOpen: (key) => incidents.get(key) !== undefined,
    clean: options.clean,
  })
  const isAbsence = (rule: string): boolean => byName.get(rule)?.absent !== undefined

  return {
    active: watch.active,
    seen(line, now) {
      const back = watch.seen(line, now)
      if (back === undefined) return undefined
      const notices: Notice[] = []
      for (const key of back) {
        const change = incidents.resolve(key, undefined, now)
        if (change.ok) notices.push(...change.notices)
      }
      return notices.length === 0 ? undefined : notices
    },
    due(now) {
      const notices: Notice[] = []
      for (const due of watch.due(now)) notices.push(...incidents.observe(due.rule, due.line, now, due.key))
      return notices
    },
    resolved(incident) {
      if (isAbsence(incident.rule)) watch.forget(incident.key)
    },
    open() {
      if (!watch.active) return 0
      let open = 0
      for (const v of incidents.views()) if (isAbsence(v.rule.name)) open++
      return open
    },
    state: () => watch.state(),
    restore: (state, resumedAt) => watch.restore(state, resumedAt),
    stats: () => watch.stats(),
  }
}
