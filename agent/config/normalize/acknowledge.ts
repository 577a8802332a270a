// acknowledge: how a page is acknowledged by a missed call. The hint pages carry is made final
// here (`{{number}}` filled in), so what renders messages only appends a text.
import type { CheckContext } from '../load/check-context'
import { parseDuration } from '../values/duration'
import { ConfigErrorCodes } from '../errors'
import type { AcknowledgeConfig } from '../types'
import { fillHint, hintNamesNumber } from '../values/value-checks'
import type { AcknowledgeInput } from '../shape/written-types'

/**
 * The embedded sandbox's own number: missed calls it simulates are made to it, and pages say to call
 * it. Defined here (the sandbox imports it) so an agent on a real API never loads the sandbox.
 */
export const SANDBOX_MISSED_CALL_NUMBER = '15550199999'
export const DEFAULT_ACK_HINT = 'Ack: missed call {{number}}'
export const DEFAULT_ACK_POLL_INTERVAL_MS = 15_000
/** Polling faster would spend the API's rate limit on nothing: a person takes seconds to call. */
export const MIN_ACK_POLL_INTERVAL_MS = 1_000

/** `sandbox`: no messaging.base_url, so the embedded sandbox's number is the default. */
export function normalizeAcknowledge(
  written: AcknowledgeInput | undefined,
  sandbox: boolean,
  ctx: CheckContext,
): AcknowledgeConfig {
  const w = written ?? {}
  const at = ['acknowledge']
  let pollIntervalMs = w.poll_interval === undefined ? DEFAULT_ACK_POLL_INTERVAL_MS : parseDuration(w.poll_interval)
  if (pollIntervalMs !== undefined && pollIntervalMs < MIN_ACK_POLL_INTERVAL_MS) {
    ctx.report(
      ConfigErrorCodes.VALUE,
      [...at, 'poll_interval'],
      `must be at least 1s, got ${ctx.show([...at, 'poll_interval'], w.poll_interval)}`,
    )
    pollIntervalMs = undefined
  }
  const missedCallNumber = w.missed_call_number ?? (sandbox ? SANDBOX_MISSED_CALL_NUMBER : undefined)
  return {
    missedCallNumber,
    pollIntervalMs: pollIntervalMs ?? DEFAULT_ACK_POLL_INTERVAL_MS,
    ackAll: w.ack_all ?? false,
    hint: hintOf(w.hint, missedCallNumber, ctx),
    voiceAudio: w.voice_audio,
  }
}

/**
 * The final hint. Without a number there is nothing to say, unless the hint was written without
 * `{{number}}` (it says how on its own); one written with it needs the number, which a real API
 * has no default for.
 */
function hintOf(written: string | undefined, number: string | undefined, ctx: CheckContext): string | undefined {
  if (number !== undefined) return fillHint(written ?? DEFAULT_ACK_HINT, number)
  if (written === undefined) return undefined
  if (!hintNamesNumber(written)) return written
  ctx.report(
    ConfigErrorCodes.CONFLICT,
    ['acknowledge', 'hint'],
    'names {{number}}, which needs acknowledge.missed_call_number (with messaging.base_url there is no default number)',
  )
  return undefined
}
