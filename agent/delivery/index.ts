// Public surface of the alert path. Re-exports only: the types others import live in types.ts.
export { createDeliveryPath } from './alert-path'
export type { AlertPathOptions, DeliveryPath } from './alert-path'
export { createAlertPipeline } from './alert-pipeline'
export type { AlertPipelineOptions } from './alert-pipeline'
export { engineOptionsOfSetup, incidentRulesOf, setupOfConfig } from './alert-setup'
export { createDispatcher, outboxReports } from './dispatcher'
export type { DispatcherOptions } from './dispatcher'
export { DeliveryError, DeliveryErrorCodes } from './errors'
export type { DeliveryErrorCode } from './errors'
export { DEFAULT_CHANNEL_CONCURRENCY, INCIDENT_CHANNEL } from './outbox-items'
export type {
  AlertPipeline,
  AlertSetup,
  DeliveryLog,
  Dispatcher,
  DispatcherStats,
  PipelineStats,
  QueuedPage,
} from './types'
