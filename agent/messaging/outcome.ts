// THE success-detection function. The spec shows no response bodies, so a real deployment may answer
// with JSON, plain text, or a 200 that carries an error. Every response of every operation goes
// through detectOutcome and nowhere else decides success. The rules are listed in README.md.

export type ParsedBody =
  | { readonly type: 'empty' }
  | { readonly type: 'json'; readonly value: unknown }
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'malformed'; readonly value: string }

export type Outcome =
  | { readonly ok: true; readonly body: ParsedBody }
  | {
      readonly ok: false
      /**
       * `status`: non-2xx. `error-body`: 2xx whose body reports failure. `malformed`: 2xx HTML, or
       * declared JSON that does not parse.
       */
      readonly reason: 'status' | 'error-body' | 'malformed'
      readonly body: ParsedBody
      /** Best human-readable message the body offers, if any. */
      readonly message: string | undefined
      /** Request field the body blames, if any. */
      readonly field: string | undefined
    }

const FAILURE_STATUS_WORDS = new Set(['error', 'failed', 'failure', 'fail', 'false'])
const FAILURE_TEXT = /^\s*(error|failed|failure|fail|invalid|unauthori[sz]ed|forbidden)\b/i

export function parseBody(text: string, contentType: string | undefined): ParsedBody {
  if (text.trim() === '') return { type: 'empty' }
  // The API never serves pages: HTML means a proxy, captive portal or error page answered instead.
  if ((contentType !== undefined && /\bhtml\b/i.test(contentType)) || /^\s*<(!doctype|html)\b/i.test(text)) {
    return { type: 'malformed', value: text }
  }
  const saysJson = contentType !== undefined && /\bjson\b/i.test(contentType)
  const looksJson = /^\s*[[{]/.test(text)
  if (saysJson || looksJson) {
    try {
      return { type: 'json', value: JSON.parse(text) as unknown }
    } catch {
      // Content-Type says JSON: a parse failure is a broken response. Otherwise it was just text
      // that happened to start with a brace.
      if (saysJson) return { type: 'malformed', value: text }
    }
  }
  return { type: 'text', value: text }
}

function stringField(obj: Record<string, unknown>, key: string): string | undefined {
  const v = obj[key]
  return typeof v === 'string' && v.trim() !== '' ? v : undefined
}

/** The message a failure body offers: `error` (string or `{ message }`), then `message`, then `msg`. */
function bodyMessage(body: ParsedBody): string | undefined {
  if (body.type === 'text') return body.value.trim().slice(0, 200)
  if (body.type !== 'json' || typeof body.value !== 'object' || body.value === null) return undefined
  const obj = body.value as Record<string, unknown>
  const err = obj['error']
  if (typeof err === 'string' && err.trim() !== '') return err
  if (typeof err === 'object' && err !== null) {
    const nested = stringField(err as Record<string, unknown>, 'message')
    if (nested !== undefined) return nested
  }
  return stringField(obj, 'message') ?? stringField(obj, 'msg')
}

function bodyField(body: ParsedBody): string | undefined {
  if (body.type !== 'json' || typeof body.value !== 'object' || body.value === null) return undefined
  return stringField(body.value as Record<string, unknown>, 'field')
}

/** Does a 2xx body say the request failed? */
function bodyReportsFailure(body: ParsedBody): boolean {
  if (body.type === 'text') return FAILURE_TEXT.test(body.value)
  if (body.type !== 'json' || typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) {
    return false
  }
  const obj = body.value as Record<string, unknown>
  const err = obj['error']
  if (err !== undefined && err !== null && err !== false && err !== '' && err !== 0) return true
  if (obj['success'] === false) return true
  const status = obj['status']
  if (typeof status === 'string' && FAILURE_STATUS_WORDS.has(status.trim().toLowerCase())) return true
  if (status === false) return true
  return false
}

/**
 * Success means: a 2xx status AND a body that does not report failure. A 2xx body reports failure
 * when it is JSON with a truthy `error`, `success: false`, or `status` of error/failed/failure/fail/false,
 * or plain text starting with error/failed/invalid/unauthorized/forbidden. An empty 2xx body is success
 * (the activity webhook answers with none). A 2xx that is HTML, or declared as JSON but does not parse,
 * is `malformed`: the request may or may not have been acted on.
 */
export function detectOutcome(status: number, text: string, contentType: string | undefined): Outcome {
  const body = parseBody(text, contentType)
  if (status < 200 || status > 299) {
    return { ok: false, reason: 'status', body, message: bodyMessage(body), field: bodyField(body) }
  }
  if (body.type === 'malformed') {
    return {
      ok: false,
      reason: 'malformed',
      body,
      message: 'response body is neither valid JSON nor plain text',
      field: undefined,
    }
  }
  if (bodyReportsFailure(body)) {
    return { ok: false, reason: 'error-body', body, message: bodyMessage(body), field: bodyField(body) }
  }
  return { ok: true, body }
}
