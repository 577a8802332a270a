// Request bodies -> checked values, pure. Every refusal names the field (`matchers.rule: must be a
// string`), unknown fields included, so a typo in a client is an error and not a silent default.
// Durations are read with the project's one grammar (agent/config/values/duration.ts).

import { DURATION_HINT, parseDuration } from '../../config/values/duration'

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string }

export interface ActionBody {
  by: string | undefined
}

export interface SilenceBody {
  matchers: Record<string, string>
  endsAt: number
  comment: string | undefined
  by: string | undefined
}

const MAX_NAME = 100
const MAX_TEXT = 1000
const MAX_MATCHERS = 32
/** The last instant a Date can hold. */
const MAX_TIME = 8.64e15
const CONTROL = /[\u0000-\u001f\u007f]/
const CONTROL_BUT_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f]/

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error })

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function unknownField(body: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  const extra = Object.keys(body).find((key) => !allowed.includes(key))
  return extra === undefined ? undefined : `${extra.slice(0, MAX_NAME)}: unknown field (allowed: ${allowed.join(', ')})`
}

/** A name (`by`): a non-empty line of at most 100 characters; undefined when absent. */
function name(value: unknown, field: string): Checked<string | undefined> {
  if (value === undefined) return { ok: true, value: undefined }
  if (typeof value !== 'string') return fail(`${field}: must be a string`)
  const text = value.trim()
  if (text === '') return fail(`${field}: must not be empty`)
  if (text.length > MAX_NAME) return fail(`${field}: longer than ${MAX_NAME} characters`)
  if (CONTROL.test(text)) return fail(`${field}: must be one line without control characters`)
  return { ok: true, value: text }
}

/** Body of POST /api/incidents/:id/{ack,unack,resolve}: `{ by?: string }`, or no body at all. */
export function checkActionBody(body: unknown): Checked<ActionBody> {
  if (body === undefined) return { ok: true, value: { by: undefined } }
  if (!isRecord(body)) return fail('body: must be a JSON object like { "by": "asha" }')
  const extra = unknownField(body, ['by'])
  if (extra !== undefined) return fail(extra)
  const by = name(body['by'], 'by')
  return by.ok ? { ok: true, value: { by: by.value } } : by
}

function checkMatchers(value: unknown): Checked<Record<string, string>> {
  if (value === undefined) return fail('matchers: required, e.g. { "rule": "errors" }')
  if (!isRecord(value)) return fail('matchers: must be an object of label -> value, e.g. { "rule": "errors" }')
  const entries = Object.entries(value)
  if (entries.length === 0) return fail('matchers: give at least one (a silence of everything is refused)')
  if (entries.length > MAX_MATCHERS) return fail(`matchers: more than ${MAX_MATCHERS}`)
  const out: Record<string, string> = {}
  for (const [key, text] of entries) {
    const field = `matchers.${key.slice(0, MAX_NAME)}`
    if (key.trim() === '' || key.length > MAX_NAME || CONTROL.test(key))
      return fail(`${field}: a label must be 1 to ${MAX_NAME} characters without control characters`)
    if (typeof text !== 'string') return fail(`${field}: must be a string`)
    if (text.length > MAX_TEXT) return fail(`${field}: longer than ${MAX_TEXT} characters`)
    out[key] = text
  }
  return { ok: true, value: out }
}

function checkEnd(body: Record<string, unknown>, now: number): Checked<number> {
  const { duration, endsAt } = body
  if (duration !== undefined && endsAt !== undefined) return fail('duration: give duration or endsAt, not both')
  if (duration !== undefined) {
    const ms = parseDuration(duration)
    if (ms === undefined) return fail(`duration: must be ${DURATION_HINT}`)
    if (ms <= 0) return fail('duration: must be more than 0')
    return now + ms > MAX_TIME ? fail('duration: too long') : { ok: true, value: now + ms }
  }
  if (endsAt === undefined) return fail('duration: required (or endsAt), e.g. "2h"')
  const at = typeof endsAt === 'number' ? endsAt : typeof endsAt === 'string' ? Date.parse(endsAt) : Number.NaN
  if (!Number.isFinite(at) || at > MAX_TIME)
    return fail('endsAt: must be a time in milliseconds or an ISO 8601 date, e.g. "2030-01-01T00:00:00Z"')
  if (at <= now) return fail('endsAt: must be in the future')
  return { ok: true, value: Math.round(at) }
}

/** Body of POST /api/silences: `{ matchers, duration | endsAt, comment?, by? }`. */
export function checkSilenceBody(body: unknown, now: number): Checked<SilenceBody> {
  if (!isRecord(body))
    return fail(
      'body: must be a JSON object like { "matchers": { "rule": "errors" }, "duration": "2h", "comment": "deploy" }',
    )
  const extra = unknownField(body, ['matchers', 'duration', 'endsAt', 'comment', 'by'])
  if (extra !== undefined) return fail(extra)
  const matchers = checkMatchers(body['matchers'])
  if (!matchers.ok) return matchers
  const endsAt = checkEnd(body, now)
  if (!endsAt.ok) return endsAt
  const comment = body['comment']
  if (comment !== undefined && typeof comment !== 'string') return fail('comment: must be a string')
  if (comment !== undefined && comment.length > MAX_TEXT) return fail(`comment: longer than ${MAX_TEXT} characters`)
  if (comment !== undefined && CONTROL_BUT_NEWLINE.test(comment))
    return fail('comment: must not hold control characters')
  const by = name(body['by'], 'by')
  if (!by.ok) return by
  const text = comment?.trim()
  return {
    ok: true,
    value: { matchers: matchers.value, endsAt: endsAt.value, comment: text === '' ? undefined : text, by: by.value },
  }
}

/**
 * Body of POST /api/login (`{ "code": "..." }`) and POST /api/identity (`{ "challenge": "..." }`): one
 * field of at most 200 characters matching `pattern`. Its value is never named back: it may be a secret.
 */
export function checkOneField(body: unknown, field: string, pattern: RegExp): Checked<string> {
  if (!isRecord(body)) return fail(`body: must be a JSON object like { "${field}": "..." }`)
  const extra = unknownField(body, [field])
  if (extra !== undefined) return fail(extra)
  const value = body[field]
  if (value === undefined) return fail(`${field}: required`)
  if (typeof value !== 'string' || value.length > 200 || !pattern.test(value)) return fail(`${field}: malformed`)
  return { ok: true, value }
}
