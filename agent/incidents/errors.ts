// Errors of the incident state, with stable codes never reused. The code keeps the name it had when
// these files belonged to the delivery path (`LOGX_DELIVERY_ERR_STATE`): users and scripts match on
// it, so moving the files down changed the class, not the code. The delivery path passes one on as
// its own DeliveryError with the same code and message (alert-path.ts).

import { codedErrorClass } from '../coded-error'

export const IncidentErrorCodes = {
  /**
   * A state file of incidents (incidents.json, timeline.jsonl, silences.json, missed-calls.json)
   * cannot be read or written.
   */
  STATE: 'LOGX_DELIVERY_ERR_STATE',
} as const

export type IncidentErrorCode = (typeof IncidentErrorCodes)[keyof typeof IncidentErrorCodes]

export class IncidentStateError extends codedErrorClass<IncidentErrorCode>(
  'IncidentStateError',
  'logx.incidents.error',
) {}
