// The test-page routes (issue #33), beside routes.ts which hands them here:
//   POST /api/test-pages        202 { testPage }   body { target, timeout? }: pages now, waits for the missed call
//   GET  /api/test-pages/:id    { testPage }       its progress (sent, delivered, acknowledged, timed out)
// Pure: the backend runs the page. Every refusal names the field.
import { DURATION_HINT, parseDuration } from '../../config/values/duration'
import { ConsoleErrorCodes } from './errors'
import { errorReply, jsonReply, type ConsoleReply } from './http'
import type { TestPageBackend } from './test-page-types'

export const DEFAULT_TEST_TIMEOUT_MS = 5 * 60_000
const MAX_TIMEOUT_MS = 60 * 60_000
const MAX_TARGET = 100
const CONTROL = /[\u0000-\u001f\u007f]/

export type TestPageBody = { ok: true; target: string; timeoutMs: number } | { ok: false; error: string }

/** Body of POST /api/test-pages: `{ target: string, timeout?: "5m" | ms }`. */
export function checkTestPageBody(body: unknown): TestPageBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, error: 'body: must be a JSON object like { "target": "asha", "timeout": "5m" }' }
  const fields = body as Record<string, unknown>
  const extra = Object.keys(fields).find((k) => k !== 'target' && k !== 'timeout')
  if (extra !== undefined)
    return { ok: false, error: `${extra.slice(0, MAX_TARGET)}: unknown field (allowed: target, timeout)` }
  const target = fields['target']
  if (typeof target !== 'string' || target.trim() === '')
    return { ok: false, error: 'target: required, the name of a person or a channel of the config' }
  if (target.length > MAX_TARGET || CONTROL.test(target))
    return { ok: false, error: `target: one line of at most ${MAX_TARGET} characters` }
  const timeout = fields['timeout']
  const timeoutMs = timeout === undefined ? DEFAULT_TEST_TIMEOUT_MS : parseDuration(timeout)
  if (timeoutMs === undefined || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS)
    return { ok: false, error: `timeout: must be ${DURATION_HINT}, more than 0 and at most 1h` }
  return { ok: true, target: target.trim(), timeoutMs }
}

const unserved = (): ConsoleReply =>
  errorReply(404, ConsoleErrorCodes.NOT_FOUND, 'this agent runs no test pages (no messaging endpoint)')

export function startTestPageReply(backend: TestPageBackend | undefined, body: unknown): ConsoleReply {
  if (backend === undefined) return unserved()
  const checked = checkTestPageBody(body)
  if (!checked.ok) return errorReply(400, ConsoleErrorCodes.INVALID_BODY, checked.error)
  const started = backend.start({ target: checked.target, timeoutMs: checked.timeoutMs })
  if (started.ok) return jsonReply(202, { testPage: started.page })
  const code =
    started.status === 409
      ? ConsoleErrorCodes.CONFLICT
      : started.status === 400
        ? ConsoleErrorCodes.INVALID_BODY
        : ConsoleErrorCodes.NOT_FOUND
  return errorReply(started.status, code, started.error)
}

export function testPageReply(backend: TestPageBackend | undefined, id: string): ConsoleReply {
  if (backend === undefined) return unserved()
  const page = backend.get(id)
  return page === undefined
    ? errorReply(404, ConsoleErrorCodes.NOT_FOUND, `no test page "${id}" (the agent keeps the last 20)`)
    : jsonReply(200, { testPage: page })
}
