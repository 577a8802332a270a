// The alertmanager and grafana intake: its handler for the framework, the end of an incident its
// resolved alerts bring, and the pure parts for the tests and the docs.
export { createAlertmanagerHandler, DEFAULT_ALERTMANAGER_KEYS, WEBHOOK_CONTENT_TYPES } from './handler'
export { endIncident, type EndOutcome } from './end-incident'
export { alertEvent, alertKey, defaultMessage, payloadEvents } from './alert-event'
export { decodeWebhook, type WebhookAlert, type WebhookPayload } from './payload'
export { BUILT_IN_SEVERITY_LEVELS, severityLevel } from './severity'
