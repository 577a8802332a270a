// Public surface of what people do to incidents: actions by hand and by missed call, the missed-call
// poller, the phone book. Re-exports only.
export { createIncidentActions, type IncidentActionsOptions } from './incident-actions'
export { createMissedCallPoller, type MissedCallPollerOptions } from './missed-calls'
export { createPhoneBook, type PersonEntry, type PhoneBook } from './phone-book'
export type * from './types'
