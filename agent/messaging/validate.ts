// Body and query checks shared by the client (before it sends) and the sandbox (which answers 400
// naming the field). Each returns every problem found, each naming its field path, so a caller
// fixes its input in one go. The address grammars (phone and chat numbers, e-mail addresses) are
// the only ones: the agent's YAML config and the transport targets' options check what users
// write with them too (agent/config/values/value-checks.ts), so what they accept, the API is sent.

import type { ValidationProblem } from './errors'
import { ACTIVITY_TYPES, PAGING } from './wire'

type Problems = ValidationProblem[]

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return typeof v === 'string' ? 'a string' : `${typeof v}`
}

function requireString(
  p: Problems,
  obj: Record<string, unknown>,
  field: string,
  path: string,
  nonEmpty: boolean,
): void {
  const v = obj[field]
  if (typeof v !== 'string') p.push({ field: path, message: `must be a string, got ${describe(v)}` })
  else if (nonEmpty && v.trim() === '') p.push({ field: path, message: 'must not be empty' })
}

function optionalString(p: Problems, obj: Record<string, unknown>, field: string, path: string): void {
  const v = obj[field]
  if (v !== undefined && typeof v !== 'string') p.push({ field: path, message: `must be a string, got ${describe(v)}` })
}

function requireInteger(p: Problems, obj: Record<string, unknown>, field: string, path: string): void {
  const v = obj[field]
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
    p.push({ field: path, message: `must be an integer, got ${typeof v === 'number' ? String(v) : describe(v)}` })
  }
}

function requireStringArray(
  p: Problems,
  obj: Record<string, unknown>,
  field: string,
  path: string,
  nonEmpty: boolean,
): void {
  const v = obj[field]
  if (!Array.isArray(v)) {
    p.push({ field: path, message: `must be an array of strings, got ${describe(v)}` })
    return
  }
  if (nonEmpty && v.length === 0) p.push({ field: path, message: 'must not be empty' })
  v.forEach((item, i) => {
    if (typeof item !== 'string') p.push({ field: `${path}[${i}]`, message: `must be a string, got ${describe(item)}` })
  })
}

function notAnObject(path: string, v: unknown): Problems {
  return [{ field: path, message: `body must be a JSON object, got ${describe(v)}` }]
}

// ---- addresses -------------------------------------------------------------------------------

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+?[\d\s\-().]{5,}$/
const CHAT_WRITTEN = /^\+\d[\d\s-]*$/
const CHAT_WIRE = /^\+?\d{6,16}$/

/** `name@domain.tld`. */
export function isEmailAddress(text: string): boolean {
  return EMAIL.test(text)
}

/** A phone number as people write it: digits, an optional leading `+`, blanks, `-`, `.` and brackets. */
export function isPhoneNumber(text: string): boolean {
  return PHONE.test(text)
}

/** A chat recipient as the API takes it: digits with the country prefix, `+` optional, nothing else. */
export function isWireChatNumber(text: string): boolean {
  return CHAT_WIRE.test(text)
}

/** A written chat number (`+91 98000 00001`) as the API takes it (`+919800000001`). */
export function compactChatNumber(text: string): string {
  return text.replace(/[\s-]/g, '')
}

/** A chat recipient as written: `+`, the country prefix and the number; blanks and `-` may group digits. */
export function isChatNumber(text: string): boolean {
  return CHAT_WRITTEN.test(text) && isWireChatNumber(compactChatNumber(text))
}

// One number is written many ways: `+91 98000 00001` in the YAML, `919800000001` or `09800000001`
// (the trunk prefix, no country) as a caller id from the API, `0091...` from abroad. Comparing them
// needs the digits alone, and a national number (its last 10 digits) when one side carries a country
// or trunk prefix the other lacks. Shorter numbers (service codes, extensions) must match exactly:
// a suffix of a few digits is not the same phone.
const NATIONAL_DIGITS = 10

/**
 * A phone number as compared: its digits, without the `00` of an international call; undefined
 * when `text` is not a phone number (letters, "private", fewer than 5 characters of one).
 */
export function phoneKey(text: string): string | undefined {
  const trimmed = text.trim()
  if (!isPhoneNumber(trimmed)) return undefined
  const digits = trimmed.replace(/\D/g, '')
  const key = digits.startsWith('00') ? digits.slice(2) : digits
  return key === '' ? undefined : key
}

/**
 * Whether two phone keys (from phoneKey) are the same phone: equal, or, when their lengths differ
 * and both have at least 10 digits, equal on the last 10 (one side has a prefix the other lacks).
 */
export function phoneKeysMatch(a: string, b: string): boolean {
  if (a === b) return a !== ''
  if (a.length === b.length || a.length < NATIONAL_DIGITS || b.length < NATIONAL_DIGITS) return false
  return a.slice(-NATIONAL_DIGITS) === b.slice(-NATIONAL_DIGITS)
}

/** Whether two written numbers are the same phone (see phoneKeysMatch); a text that is no number matches nothing. */
export function samePhone(a: string, b: string): boolean {
  const ka = phoneKey(a)
  const kb = phoneKey(b)
  return ka !== undefined && kb !== undefined && phoneKeysMatch(ka, kb)
}

// ---- bodies ----------------------------------------------------------------------------------

export function validateSmsSend(body: unknown): Problems {
  if (!isObject(body)) return notAnObject('(body)', body)
  const p: Problems = []
  const numbers = body['numbers']
  if (!Array.isArray(numbers))
    p.push({ field: 'numbers', message: `must be an array of integers, got ${describe(numbers)}` })
  else {
    if (numbers.length === 0) p.push({ field: 'numbers', message: 'must not be empty' })
    numbers.forEach((n, i) => {
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
        p.push({ field: `numbers[${i}]`, message: 'must be a positive integer phone number' })
      }
    })
  }
  requireString(p, body, 'sms', 'sms', true)
  for (const f of ['route', 'senderi_d', 'message_format', 'message_type', 'template_id', 'smstype', 'schedule_time']) {
    requireString(p, body, f, f, false)
  }
  return p
}

export function validateMailSend(body: unknown): Problems {
  if (!isObject(body)) return notAnObject('(body)', body)
  const p: Problems = []
  requireString(p, body, 'from', 'from', true)
  if (typeof body['from'] === 'string' && body['from'].trim() !== '' && !isEmailAddress(body['from'])) {
    p.push({ field: 'from', message: 'must be an e-mail address' })
  }
  requireStringArray(p, body, 'to', 'to', true)
  const to = body['to']
  if (Array.isArray(to)) {
    to.forEach((addr, i) => {
      if (typeof addr === 'string' && !isEmailAddress(addr))
        p.push({ field: `to[${i}]`, message: 'must be an e-mail address' })
    })
  }
  requireString(p, body, 'subject', 'subject', true)
  requireString(p, body, 'message', 'message', true)
  for (const f of ['message_format', 'attachment', 'smstype', 'schedule_time']) requireString(p, body, f, f, false)
  return p
}

export function validateChatSend(body: unknown): Problems {
  if (!isObject(body)) return notAnObject('(body)', body)
  const p: Problems = []
  requireInteger(p, body, 'template_id', 'template_id')
  requireString(p, body, 'number', 'number', true)
  const num = body['number']
  if (typeof num === 'string' && num.trim() !== '' && !isWireChatNumber(num)) {
    p.push({ field: 'number', message: 'must be a phone number with country prefix (digits, optional leading +)' })
  }
  requireStringArray(p, body, 'variable', 'variable', false)
  requireString(p, body, 'attachment', 'attachment', false)
  return p
}

export function validateVoiceBroadcast(body: unknown): Problems {
  if (!isObject(body)) return notAnObject('(body)', body)
  const p: Problems = []
  requireString(p, body, 'receiver', 'receiver', true)
  requireString(p, body, 'attachment', 'attachment', true)
  requireString(p, body, 'schedule_time', 'schedule_time', false)
  return p
}

export function validateChatGroupBody(body: unknown): Problems {
  if (body === undefined) return []
  if (!isObject(body)) return notAnObject('(body)', body)
  const p: Problems = []
  for (const f of ['name', 'keywords', 'caption', 'instance_id']) optionalString(p, body, f, f)
  for (const f of ['type', 'template']) {
    if (body[f] !== undefined) requireInteger(p, body, f, f)
  }
  if (body['media'] !== undefined && !Array.isArray(body['media'])) {
    p.push({ field: 'media', message: `must be an array, got ${describe(body['media'])}` })
  }
  return p
}

export function validateLead(body: unknown): Problems {
  if (!isObject(body)) return notAnObject('(body)', body)
  const p: Problems = []
  requireString(p, body, 'name', 'name', true)
  for (const f of ['email', 'display_name', 'phone']) optionalString(p, body, f, f)
  if (typeof body['email'] === 'string' && body['email'] !== '' && !isEmailAddress(body['email'])) {
    p.push({ field: 'email', message: 'must be an e-mail address' })
  }
  const other = body['other_fields']
  if (other !== undefined) {
    if (!isObject(other))
      p.push({ field: 'other_fields', message: `must be an object of label to value, got ${describe(other)}` })
    else {
      for (const [k, v] of Object.entries(other)) {
        if (typeof v !== 'string')
          p.push({ field: `other_fields.${k}`, message: `must be a string, got ${describe(v)}` })
      }
    }
  }
  return p
}

export function validateActivities(body: unknown): Problems {
  if (!isObject(body)) return notAnObject('(body)', body)
  const p: Problems = []
  const leadId = body['lead_id']
  if (typeof leadId !== 'number' || !Number.isSafeInteger(leadId) || leadId <= 0) {
    p.push({ field: 'lead_id', message: 'must be a positive integer (the lead_id returned by lead creation)' })
  }
  const list = body['activities']
  if (!Array.isArray(list)) {
    p.push({ field: 'activities', message: `must be a list of activities, got ${describe(list)}` })
    return p
  }
  if (list.length === 0) p.push({ field: 'activities', message: 'must not be empty' })
  list.forEach((a, i) => {
    const path = `activities[${i}]`
    if (!isObject(a)) {
      p.push({ field: path, message: `must be an object, got ${describe(a)}` })
      return
    }
    requireString(p, a, 'title', `${path}.title`, true)
    requireInteger(p, a, 'activity_date', `${path}.activity_date`)
    const type = a['activity_type']
    if (typeof type !== 'string' || !(ACTIVITY_TYPES as readonly string[]).includes(type)) {
      p.push({ field: `${path}.activity_type`, message: `must be one of ${ACTIVITY_TYPES.join(', ')}` })
    }
    optionalString(p, a, 'notes', `${path}.notes`)
  })
  return p
}

/** Query values as the service receives them: strings, or absent. */
export type QueryValues = Readonly<Record<string, string | undefined>>

function positiveIntParam(p: Problems, q: QueryValues, name: string, max: number | undefined): void {
  const raw = q[name]
  if (raw === undefined) return
  if (!/^\d+$/.test(raw) || Number(raw) < 1) p.push({ field: name, message: 'must be a positive integer' })
  else if (max !== undefined && Number(raw) > max) p.push({ field: name, message: `must be at most ${max}` })
}

export function validatePagingQuery(q: QueryValues): Problems {
  const p: Problems = []
  positiveIntParam(p, q, 'per_page', PAGING.maxPerPage)
  positiveIntParam(p, q, 'limit', undefined)
  positiveIntParam(p, q, 'page', undefined)
  return p
}

export function validateSearchQuery(q: QueryValues): Problems {
  const p = validatePagingQuery(q)
  if (q['keyword'] === undefined || q['keyword'].trim() === '')
    p.push({ field: 'keyword', message: 'must not be empty' })
  return p
}

export function validateChatGroupQuery(q: QueryValues): Problems {
  if (q['instance_id'] === undefined || q['instance_id'].trim() === '') {
    return [{ field: 'instance_id', message: 'must not be empty' }]
  }
  return []
}
