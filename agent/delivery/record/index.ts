// Public surface of the CRM recording: the recorder a path acquires, and what it hears of a notice.
// Re-exports only.
export { incidentActivities } from './incident-activities'
export { incidentEvent, sentActivity } from './incident-event'
export { acquireRecorder } from './incident-recorder'
export { createLeadMap } from './lead-map'
export type * from './types'
