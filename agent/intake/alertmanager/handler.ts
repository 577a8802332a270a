// The HTTP handler of an `alertmanager` or `grafana` source: the framework routes a POST on its
// paths here (after the token, the rate limit and the body limit); the whole body is decoded and
// mapped before anything is taken, so a payload with one bad alert is refused whole with a 400 that
// names the field. What the events do on the alert path is alert-event.ts's header.
import type { AlertmanagerIntakeConfig, IntakeSourceConfig } from '../../config/types'
import { payloadError } from '../errors'
import type { HttpIntakeHandler, IntakeEvent } from '../types'
import { payloadEvents, type AlertmanagerMapping } from './alert-event'
import { decodeWebhook, type Flavour } from './payload'
import { DEFAULT_SEVERITY_LABEL } from './severity'

/** Alertmanager and Grafana both send their webhook as JSON. */
export const WEBHOOK_CONTENT_TYPES: readonly string[] = ['application/json']

/** The keys of a source the normalizer gave none of (a setup made by hand, the tests). */
export const DEFAULT_ALERTMANAGER_KEYS: AlertmanagerIntakeConfig = {
  severityLabel: DEFAULT_SEVERITY_LABEL,
  severityLevels: {},
  sendResolved: true,
}

export function mappingOf(keys: AlertmanagerIntakeConfig): AlertmanagerMapping {
  const levels = Object.entries(keys.severityLevels).map(([value, level]) => [value.toLowerCase(), level] as const)
  return { severityLabel: keys.severityLabel, severityLevels: new Map(levels) }
}

function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown
  } catch (err) {
    throw payloadError('(body)', `not JSON: ${(err as Error).message}`)
  }
}

/** Decodes one request's body to its events, or throws the IntakeError of its first bad field. */
export function decodeWebhookBody(body: Buffer, flavour: Flavour, source: string, mapping: AlertmanagerMapping) {
  const decoded = decodeWebhook(parsed(body), flavour)
  if (!decoded.ok) throw payloadError(decoded.field, decoded.problem)
  return payloadEvents(decoded.payload, source, mapping)
}

export function createAlertmanagerHandler(source: IntakeSourceConfig): HttpIntakeHandler {
  const flavour: Flavour = source.type === 'grafana' ? 'grafana' : 'alertmanager'
  const keys = source.intake.alertmanager ?? DEFAULT_ALERTMANAGER_KEYS
  const mapping = mappingOf(keys)
  return {
    source: source.name,
    paths: source.intake.paths,
    contentTypes: WEBHOOK_CONTENT_TYPES,
    decode: (body): IntakeEvent[] =>
      decodeWebhookBody(body, flavour, source.name, mapping).map((event) =>
        event.resolves === true ? { ...event, notifyResolved: keys.sendResolved } : event,
      ),
  }
}
