// Alertmanager's webhook payload (webhook_config, version "4") and Grafana alerting's webhook contact
// point (the same body with Grafana's fields beside it), read strictly: a payload is taken whole or
// refused with the first field that is wrong, named by its path (`alerts[2].labels.severity`), so the
// caller can answer 400 and take nothing of it. Pure: a parsed JSON value in, a typed payload out.
//
// What is required is what every Alertmanager since the webhook's version 4 sends: `version`, `status`,
// `alerts`, and per alert `status`, `labels` (strings), `startsAt`. The rest is read when present and
// checked for its type: `annotations` (strings), `endsAt`, `generatorURL`, `fingerprint` (Alertmanager
// sends it since 0.19; without it the key is made of the labels, alert-event.ts). Grafana sends
// version "1"; its extra fields (`values` included) are kept as they came, for templates to show.

/** An alert of the payload, as the webhook describes it. */
export interface WebhookAlert {
  status: 'firing' | 'resolved'
  labels: Record<string, string>
  annotations: Record<string, string>
  startsAt: string
  endsAt: string | undefined
  generatorURL: string | undefined
  fingerprint: string | undefined
  /** Grafana's per-alert fields (silenceURL, dashboardURL, panelURL, imageURL, values, valueString). */
  grafana: Record<string, unknown>
}

export interface WebhookPayload {
  version: string
  status: 'firing' | 'resolved'
  receiver: string | undefined
  groupKey: string | undefined
  truncatedAlerts: number
  groupLabels: Record<string, string>
  commonLabels: Record<string, string>
  commonAnnotations: Record<string, string>
  externalURL: string | undefined
  alerts: WebhookAlert[]
  /** Grafana's group fields (orgId, title, state, message). */
  grafana: Record<string, unknown>
}

export type Flavour = 'alertmanager' | 'grafana'

export type Decoded = { ok: true; payload: WebhookPayload } | { ok: false; field: string; problem: string }

/** The version each sender writes; Grafana's is not checked (it is not Alertmanager's contract). */
export const ALERTMANAGER_VERSION = '4'

const GRAFANA_ALERT_FIELDS = ['silenceURL', 'dashboardURL', 'panelURL', 'imageURL', 'values', 'valueString']
const GRAFANA_GROUP_FIELDS = ['orgId', 'title', 'state', 'message']

/** Thrown inside this module only: decodeWebhook() turns it into its `ok: false` result. */
class Refused {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {}
}

type Fields = Record<string, unknown>

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function own(object: Fields, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined
}

function where(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`
}

function text(object: Fields, key: string, parent: string, required: boolean): string | undefined {
  const value = own(object, key)
  if (value === undefined || (value === null && !required)) {
    if (required) throw new Refused(where(parent, key), 'missing')
    return undefined
  }
  if (typeof value !== 'string') throw new Refused(where(parent, key), `expected a string, got ${kindOf(value)}`)
  return value
}

function status(object: Fields, parent: string): 'firing' | 'resolved' {
  const value = text(object, 'status', parent, true)
  if (value === 'firing' || value === 'resolved') return value
  throw new Refused(where(parent, 'status'), `expected "firing" or "resolved", got ${JSON.stringify(value)}`)
}

/** A label set or annotations: an object of strings, copied as own data properties (`__proto__` too). */
function stringMap(object: Fields, key: string, parent: string, required: boolean): Record<string, string> {
  const value = own(object, key)
  const path = where(parent, key)
  if (value === undefined || value === null) {
    if (required) throw new Refused(path, 'missing')
    return {}
  }
  if (!isObject(value)) throw new Refused(path, `expected an object of strings, got ${kindOf(value)}`)
  const entries = Object.entries(value)
  for (const [name, item] of entries) {
    if (typeof item !== 'string') throw new Refused(`${path}.${name}`, `expected a string, got ${kindOf(item)}`)
  }
  // Object.fromEntries defines own properties: a label named "__proto__" stays a label.
  return Object.fromEntries(entries) as Record<string, string>
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function picked(object: Fields, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => own(object, key) !== undefined).map((key) => [key, object[key]]))
}

function decodeAlert(value: unknown, path: string, flavour: Flavour): WebhookAlert {
  if (!isObject(value)) throw new Refused(path, `expected an object, got ${kindOf(value)}`)
  const startsAt = text(value, 'startsAt', path, true) as string
  if (Number.isNaN(Date.parse(startsAt))) throw new Refused(`${path}.startsAt`, 'expected an RFC 3339 time')
  return {
    status: status(value, path),
    labels: stringMap(value, 'labels', path, true),
    annotations: stringMap(value, 'annotations', path, false),
    startsAt,
    endsAt: text(value, 'endsAt', path, false),
    generatorURL: text(value, 'generatorURL', path, false),
    fingerprint: text(value, 'fingerprint', path, false),
    grafana: flavour === 'grafana' ? picked(value, GRAFANA_ALERT_FIELDS) : {},
  }
}

function decodeVersion(body: Fields, flavour: Flavour): string {
  const value = own(body, 'version')
  // Grafana writes "1"; a number there is read as its text rather than refused.
  if (flavour === 'grafana') return value === undefined || value === null ? '' : String(value)
  const version = text(body, 'version', '', true) as string
  if (version !== ALERTMANAGER_VERSION) {
    throw new Refused('version', `expected "${ALERTMANAGER_VERSION}" (webhook_config), got ${JSON.stringify(version)}`)
  }
  return version
}

function decodeAlerts(body: Fields, flavour: Flavour): WebhookAlert[] {
  const alerts = own(body, 'alerts')
  if (alerts === undefined) throw new Refused('alerts', 'missing')
  if (!Array.isArray(alerts)) throw new Refused('alerts', `expected an array, got ${kindOf(alerts)}`)
  return alerts.map((alert, i) => decodeAlert(alert, `alerts[${i}]`, flavour))
}

function decodeTruncated(body: Fields): number {
  const value = own(body, 'truncatedAlerts')
  if (value === undefined || value === null) return 0
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new Refused('truncatedAlerts', `expected a count, got ${JSON.stringify(value)}`)
  }
  return value
}

function decodeBody(body: unknown, flavour: Flavour): WebhookPayload {
  if (!isObject(body)) throw new Refused('(body)', `expected a JSON object, got ${kindOf(body)}`)
  return {
    version: decodeVersion(body, flavour),
    status: status(body, ''),
    receiver: text(body, 'receiver', '', false),
    groupKey: text(body, 'groupKey', '', false),
    truncatedAlerts: decodeTruncated(body),
    groupLabels: stringMap(body, 'groupLabels', '', false),
    commonLabels: stringMap(body, 'commonLabels', '', false),
    commonAnnotations: stringMap(body, 'commonAnnotations', '', false),
    externalURL: text(body, 'externalURL', '', false),
    alerts: decodeAlerts(body, flavour),
    grafana: flavour === 'grafana' ? picked(body, GRAFANA_GROUP_FIELDS) : {},
  }
}

/** The payload, or the first field that is wrong and why. */
export function decodeWebhook(body: unknown, flavour: Flavour): Decoded {
  try {
    return { ok: true, payload: decodeBody(body, flavour) }
  } catch (err) {
    if (err instanceof Refused) return { ok: false, field: err.field, problem: err.problem }
    throw err
  }
}
