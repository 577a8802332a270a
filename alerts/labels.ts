// What a matcher on an incident sees (silences, inhibition): the fields of its last line, plus
// `rule`, `fingerprint` (the incident key) and `title`, which win over line fields of those names.
// A rule on kinds' incident also has `kind`, its kind's id (`kind=<id>` mutes the kind).
// One definition, so `{ rule: db-down, host: db1 }` means the same in a silence and an inhibit rule.
import { kindIdOf } from './kinds/kind-vars'
import type { IncidentSnapshot } from './notice'

export function incidentLabels(incident: IncidentSnapshot): Record<string, unknown> {
  // Spread defines own data properties: an own "__proto__" key of the record stays data.
  const { record } = incident.lastLine
  const kind = kindIdOf(record)
  const labels = { ...record, rule: incident.rule, fingerprint: incident.key, title: incident.title }
  return kind === undefined ? labels : { ...labels, kind }
}
