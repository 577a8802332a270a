// Delivery errors with stable codes, never reused. Callers (the daemon's CLI, a target's start)
// say where: the daemon exits 1 with the message, a target wraps it as an option error.

import { codedErrorClass } from '../coded-error'

export const DeliveryErrorCodes = {
  /**
   * A state file (incidents.json, timeline.jsonl, silences.json, missed-calls.json) cannot be read
   * or written. The incident files throw it as agent/incidents' IncidentStateError (same code); the
   * alert path passes that on as a DeliveryError.
   */
  STATE: 'LOGX_DELIVERY_ERR_STATE',
  /** The outbox journal cannot be opened or replayed. */
  OUTBOX: 'LOGX_DELIVERY_ERR_OUTBOX',
  /** The fingerprint -> lead map (incident-leads.json) cannot be used. */
  LEADS: 'LOGX_DELIVERY_ERR_LEADS',
  /** Not a failure: another agent of the fleet holds the notification's claim; the item waits (fleet-gate.ts). */
  HELD: 'LOGX_DELIVERY_HELD',
} as const

export type DeliveryErrorCode = (typeof DeliveryErrorCodes)[keyof typeof DeliveryErrorCodes]

export class DeliveryError extends codedErrorClass<DeliveryErrorCode>('DeliveryError', 'logx.delivery.error') {}
