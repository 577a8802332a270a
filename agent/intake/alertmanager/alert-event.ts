// One alert of a webhook payload as an event of the alert path. Pure. The rules:
// 1. the event's record holds the alert as fields: `labels`, `annotations`, `status`, `startsAt`,
//    `endsAt`, `generatorURL`, `fingerprint`, the group's `receiver`, `groupKey`, `externalURL`, and
//    Grafana's fields (`grafana.*`); so rules match `labels.team`, messages render
//    `{{labels.alertname}}`, `{{annotations.summary}}` and `{{generatorURL}}`;
// 2. its level is its severity label's (severity.ts);
// 3. its message (`msg`, what a rule without a title sends) is "<alertname>: <summary>", else
//    "<alertname>: <description>" (annotations), else "<alertname>" with the labels that say where
//    (instance, job, namespace, pod, service) in parentheses; without an alertname, the labels alone;
// 4. its incident key is the alert's `fingerprint` (what Alertmanager itself names an alert by: a
//    hash of its labels); without one, a hash of its sorted labels, which names the same alert alike.
//    It goes in the record's `logx_key` (INCIDENT_KEY_FIELD), which keys the incident of a rule
//    without `group_by` (with one, the rule's fields do);
// 5. `status: resolved` makes it an end: it resolves the incident of its key (and changes nothing
//    when there is none);
// 6. a firing alert sent again (Alertmanager's group_interval and repeat_interval resends) is the
//    same key: it counts as one more line of the incident and pages no more than logx's own repeat
//    and escalation say.
import { hash53, INCIDENT_KEY_FIELD, type AlertLine } from '../../../alerts'
import type { IntakeEvent } from '../types'
import type { WebhookAlert, WebhookPayload } from './payload'
import { DEFAULT_SEVERITY_LABEL, severityLevel } from './severity'

export interface AlertmanagerMapping {
  /** The label whose value names the level; `severity` by default. */
  severityLabel: string
  /** The source's `severity_levels`: lowercase values to level numbers. */
  severityLevels: ReadonlyMap<string, number>
}

export const DEFAULT_MAPPING: AlertmanagerMapping = { severityLabel: DEFAULT_SEVERITY_LABEL, severityLevels: new Map() }

const WHERE_LABELS = ['instance', 'job', 'namespace', 'pod', 'service']

function own(map: Record<string, string>, key: string): string | undefined {
  const value = Object.hasOwn(map, key) ? map[key] : undefined
  return value === undefined || value.trim() === '' ? undefined : value
}

/** Rule 3. */
export function defaultMessage(alert: Pick<WebhookAlert, 'labels' | 'annotations'>): string {
  const name = own(alert.labels, 'alertname')
  const said = own(alert.annotations, 'summary') ?? own(alert.annotations, 'description')
  if (said !== undefined) return name === undefined ? said : `${name}: ${said}`
  const labels = name === undefined ? Object.keys(alert.labels).sort() : WHERE_LABELS
  const where = labels.flatMap((key) => {
    const value = own(alert.labels, key)
    return value === undefined ? [] : [`${key}=${value}`]
  })
  if (name === undefined) return where.length === 0 ? 'alert without labels' : where.join(', ')
  return where.length === 0 ? name : `${name} (${where.join(', ')})`
}

/** Rule 4. */
export function alertKey(alert: Pick<WebhookAlert, 'labels' | 'fingerprint'>): string {
  if (alert.fingerprint !== undefined && alert.fingerprint !== '') return alert.fingerprint
  const sorted = Object.keys(alert.labels)
    .sort()
    .map((name) => `${name}\u0000${alert.labels[name] as string}`)
  return `labels:${hash53(sorted.join('\u0001'))}`
}

function recordOf(payload: WebhookPayload, alert: WebhookAlert, level: number, key: string): Record<string, unknown> {
  const record: Record<string, unknown> = {
    level,
    msg: defaultMessage(alert),
    status: alert.status,
    labels: alert.labels,
    annotations: alert.annotations,
    startsAt: alert.startsAt,
    fingerprint: key,
    [INCIDENT_KEY_FIELD]: key,
  }
  if (alert.endsAt !== undefined) record.endsAt = alert.endsAt
  if (alert.generatorURL !== undefined) record.generatorURL = alert.generatorURL
  if (payload.receiver !== undefined) record.receiver = payload.receiver
  if (payload.groupKey !== undefined) record.groupKey = payload.groupKey
  if (payload.externalURL !== undefined) record.externalURL = payload.externalURL
  const grafana = { ...payload.grafana, ...alert.grafana }
  if (Object.keys(grafana).length > 0) record.grafana = grafana
  return record
}

/** Rules 1-5 for one alert of `payload`; `source` is the intake source's name. */
export function alertEvent(
  payload: WebhookPayload,
  alert: WebhookAlert,
  source: string,
  mapping: AlertmanagerMapping = DEFAULT_MAPPING,
): IntakeEvent {
  const level = severityLevel(own(alert.labels, mapping.severityLabel), mapping.severityLevels)
  const key = alertKey(alert)
  const record = recordOf(payload, alert, level, key)
  // The raw text is the record as JSON: what the incident state keeps and replays after a restart.
  const line: AlertLine = { raw: JSON.stringify(record), record, level, msg: record.msg as string, source, json: true }
  return { line, incidentKey: key, resolves: alert.status === 'resolved' }
}

/** Every alert of a payload, in its order. */
export function payloadEvents(payload: WebhookPayload, source: string, mapping?: AlertmanagerMapping): IntakeEvent[] {
  return payload.alerts.map((alert) => alertEvent(payload, alert, source, mapping))
}
