// agent/intake: network sources (alertmanager / grafana webhooks, syslog, OTLP/HTTP, http). The
// contract each type builds on is types.ts; the daemon runs them through the host.
export { createIntakeHost, type IntakeHost, type RunningIntake } from './intake-host'
export { createIntakeSink, type IntakeSinkOptions } from './intake-sink'
export type { IntakeCounts } from './intake-counters'
export { IntakeBusyError, IntakeError, IntakeErrorCodes, payloadError } from './errors'
export type * from './types'
