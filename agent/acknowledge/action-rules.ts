// What an action on an incident means, decided without the engine or a clock. Pure. The rules:
// 1. An id names an incident by its whole key, or by a start of 4 characters or more of its key or
//    of its hash (the part after the last `:`, the short id people see); two matches: ambiguous.
// 2. A refusal maps the engine's reason to a status: an unknown incident is 404; a pending one, an
//    acknowledged one (naming who, how and when, when known) and an unacknowledged one are 409.
// 3. A missed call acknowledges what was paged before it was made, never a page that came after:
//    its time is the call's, unless that is later than now (the API's clock ahead of ours).
// 4. The log says an action was done with its past participle: acknowledged, unacknowledged, resolved.
import type { AckOutcome, IncidentSnapshot } from '../../alerts'
import type { ManualAction } from './types'

export const MIN_PREFIX = 4

/** Rule 1: the key `id` names among `keys`, 'ambiguous', or undefined. */
export function keyNamed(id: string, keys: Iterable<string>): string | 'ambiguous' | undefined {
  if (id.length < MIN_PREFIX) return undefined
  let found: string | undefined
  for (const key of keys) {
    if (!key.startsWith(id) && !key.startsWith(id, key.lastIndexOf(':') + 1)) continue
    if (found !== undefined) return 'ambiguous'
    found = key
  }
  return found
}

/** Rule 2. */
export function refusal(
  outcome: Extract<AckOutcome, { ok: false }>,
  incident: IncidentSnapshot | undefined,
): { ok: false; status: 404 | 409; error: string } {
  switch (outcome.reason) {
    case 'unknown':
      return { ok: false, status: 404, error: 'no such open incident' }
    case 'pending':
      return {
        ok: false,
        status: 409,
        error: 'the incident is still pending (group_wait or threshold): nobody was paged yet',
      }
    case 'already-acknowledged': {
      const ack = incident?.ack
      if (ack === undefined) return { ok: false, status: 409, error: 'already acknowledged' }
      const when = new Date(ack.at).toISOString()
      return {
        ok: false,
        status: 409,
        error: `already acknowledged by ${ack.by} (${ack.via.replace('_', ' ')}) at ${when}`,
      }
    }
    case 'not-acknowledged':
      return { ok: false, status: 409, error: 'the incident is not acknowledged' }
  }
}

/** Rule 3. */
export function callAckTime(callAt: number, now: number): number {
  return Math.min(callAt, now)
}

/** Rule 4. */
export function doneWord(action: ManualAction): string {
  return action === 'ack' ? 'acknowledged' : action === 'unack' ? 'unacknowledged' : 'resolved'
}
