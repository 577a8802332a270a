// Simulated inbound missed calls: what `POST /_sandbox/missed-calls` stores, so a user without a
// phone can watch a page get acknowledged by "missed call". The record has the shape the messaging
// client expects from `missed_record` (`WireMissedCallRecord`, ASSUMED: the spec names the listing,
// not its fields) and goes through the store like every other record: journaled, retained, listed
// newest first and streamed to the inbox.

import { SANDBOX_MISSED_CALL_NUMBER } from '../config/normalize/acknowledge'
import type { ValidationProblem } from '../messaging/errors'
import { isPhoneNumber } from '../messaging/validate'
import type { WireMissedCallRecord } from '../messaging/wire'
import type { Store } from './types'

/** The number the sandbox "answers": missed calls go to it unless the caller of the route says otherwise. */
export { SANDBOX_MISSED_CALL_NUMBER }

const FIELDS = new Set(['caller', 'called'])
const MIN_DIGITS = 5
const MAX_DIGITS = 16

/**
 * A number as people write it (`+91 98000-00001`) as the sandbox stores it (`+919800000001`):
 * digits only, the leading `+` kept when written, so listings show one spelling per number.
 */
export function compactPhoneNumber(text: string): string {
  const digits = text.replace(/\D/g, '')
  return text.trimStart().startsWith('+') ? `+${digits}` : digits
}

function checkNumber(value: unknown, field: string, problems: ValidationProblem[]): string | undefined {
  if (typeof value !== 'string') {
    problems.push({
      field,
      message: `must be a string, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    })
    return undefined
  }
  const digits = value.replace(/\D/g, '').length
  // isPhoneNumber owns the grammar; the digit count stops "(((((" or a 1 MiB run of digits.
  if (!isPhoneNumber(value.trim()) || digits < MIN_DIGITS || digits > MAX_DIGITS) {
    problems.push({
      field,
      message:
        `must be a phone number: ${MIN_DIGITS} to ${MAX_DIGITS} digits, ` +
        'an optional leading +, blanks, - . ( ) allowed',
    })
    return undefined
  }
  return compactPhoneNumber(value)
}

export type MissedCallInput =
  { ok: true; caller: string; called: string } | { ok: false; problems: ValidationProblem[] }

/** Checks a `{ caller, called? }` body; every problem names its field. Pure. */
export function parseMissedCall(body: unknown): MissedCallInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problems: [{ field: '(body)', message: 'must be a JSON object { caller, called? }' }] }
  }
  const given = body as Record<string, unknown>
  const problems: ValidationProblem[] = []
  const caller = checkNumber(given['caller'], 'caller', problems)
  const called =
    given['called'] === undefined ? SANDBOX_MISSED_CALL_NUMBER : checkNumber(given['called'], 'called', problems)
  // A misspelt `called` would otherwise silently become the default number.
  for (const key of Object.keys(given)) {
    if (!FIELDS.has(key)) problems.push({ field: key, message: 'unknown field (expected caller, called)' })
  }
  if (problems.length > 0 || caller === undefined || called === undefined) return { ok: false, problems }
  return { ok: true, caller, called }
}

/** Stores one missed call; it is the newest `missed_record` from now on. */
export function addMissedCall(store: Store, caller: string, called: string): WireMissedCallRecord {
  const entry = store.add(
    'missed',
    ({ id, createdAt }) => ({ id, created_at: createdAt, caller, called }) satisfies WireMissedCallRecord,
  )
  return entry.record as unknown as WireMissedCallRecord
}
