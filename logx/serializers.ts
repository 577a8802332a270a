// Standard serializers: errors (with causes and aggregate errors), HTTP requests and responses.
// Each result keeps the original under a non-enumerable `raw` so wrappers can reach it.

import type { Serializer } from './option-types'

interface ErrorLike {
  message: string
  stack?: string
  name?: string
  cause?: unknown
  errors?: unknown
  [key: string]: unknown
}

export interface SerializedError {
  type: string
  message: string
  stack: string
  aggregateErrors?: SerializedError[]
  cause?: SerializedError
  raw: Error
  [key: string]: unknown
}

const rawKey = Symbol('logx.raw')
// Errors on the current serialization path: a nested error already here is a cycle. A Set rather
// than a mark on the error keeps frozen errors serializable.
const onPath = new Set<object>()

function withRaw<T extends object>(prototypeFields: Record<string, unknown>): T {
  const descriptors: PropertyDescriptorMap = {}
  for (const [key, value] of Object.entries(prototypeFields))
    descriptors[key] = { enumerable: true, writable: true, value }
  descriptors.raw = {
    enumerable: false,
    get(this: Record<symbol, unknown>) {
      return this[rawKey]
    },
    set(this: Record<symbol, unknown>, value: unknown) {
      Object.defineProperty(this, rawKey, { value, writable: true, configurable: true, enumerable: false })
    },
  }
  return Object.create({}, descriptors) as T
}

const errorPrototype = withRaw<object>({
  type: undefined,
  message: undefined,
  stack: undefined,
  aggregateErrors: undefined,
})
const requestPrototype = withRaw<object>({
  id: '',
  method: '',
  url: '',
  query: '',
  params: '',
  headers: {},
  remoteAddress: '',
  remotePort: '',
})
const responsePrototype = withRaw<object>({ statusCode: 0, headers: '' })

export function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string'
}

/** The error's cause, including VError-style `cause()` functions; only error-like causes count. */
export function getErrorCause(err: unknown): ErrorLike | undefined {
  if (!isErrorLike(err)) return undefined
  const cause = typeof err.cause === 'function' ? (err.cause as () => unknown)() : err.cause
  return isErrorLike(cause) ? cause : undefined
}

/** `outer: inner: innermost`, guarding against cause cycles. */
export function messageWithCauses(err: ErrorLike): string {
  const seen = new Set<unknown>()
  let out = ''
  let current: ErrorLike | undefined = err
  let skipMessage = false
  while (current) {
    if (!skipMessage) out += current.message || ''
    if (seen.has(current)) return out + ': ...'
    seen.add(current)
    const cause = getErrorCause(current)
    if (!cause) break
    // VError-style causes already embed the cause's message in their own.
    skipMessage = typeof current.cause === 'function'
    if (!skipMessage) out += ': '
    current = cause
  }
  return out
}

/** Stacks joined by `caused by:`, guarding against cause cycles. */
export function stackWithCauses(err: ErrorLike): string {
  const seen = new Set<unknown>()
  let out = ''
  let current: ErrorLike | undefined = err
  while (current) {
    out += current.stack || ''
    if (seen.has(current)) return out + '\ncauses have become circular...'
    seen.add(current)
    current = getErrorCause(current)
    if (current) out += '\ncaused by: '
  }
  return out
}

function typeName(err: ErrorLike): string {
  const ctor = (err as { constructor?: unknown }).constructor
  // pino's type is the constructor's name, else the error's name as it is (undefined left out).
  return typeof ctor === 'function' ? ctor.name : (err.name as string)
}

function serializeError(err: ErrorLike, keepCauseNested: boolean): SerializedError {
  const out = Object.create(errorPrototype) as SerializedError
  onPath.add(err)
  try {
    out.type = typeName(err)
    out.message = keepCauseNested ? err.message : messageWithCauses(err)
    // errWithCause keeps the stack as it is (undefined left out), as pino's does.
    out.stack = keepCauseNested ? (err.stack as string) : stackWithCauses(err)
    if (Array.isArray(err.errors)) {
      out.aggregateErrors = err.errors.map((inner: unknown) =>
        isErrorLike(inner) ? serializeError(inner, keepCauseNested) : inner,
      ) as SerializedError[]
    }
    if (keepCauseNested && isErrorLike(err.cause) && !onPath.has(err.cause)) {
      out.cause = serializeError(err.cause, true)
    }
    for (const key in err) {
      if (out[key] !== undefined) continue
      const value = err[key]
      if (isErrorLike(value)) {
        // Causes were folded into message and stack above; a nested error already on the path is a cycle.
        if ((keepCauseNested || key !== 'cause') && !onPath.has(value)) {
          out[key] = serializeError(value, keepCauseNested)
        }
      } else {
        out[key] = value
      }
    }
  } finally {
    onPath.delete(err)
  }
  out.raw = err as unknown as Error
  return out
}

/** The default `err` serializer: type, message and stack with causes folded in, aggregate errors, own fields. */
export function err(value: unknown): unknown {
  return isErrorLike(value) ? serializeError(value, false) : value
}

/** Like `err`, but keeps each cause as a nested serialized error under `cause`. */
export function errWithCause(value: unknown): unknown {
  return isErrorLike(value) ? serializeError(value, true) : value
}

export interface SerializedRequest {
  id: unknown
  method: string
  url: string
  query?: unknown
  params?: unknown
  headers: Record<string, unknown>
  remoteAddress?: string
  remotePort?: number
  raw: unknown
}

/** What req() reads of a request: Node's IncomingMessage, or Express's, Hapi's or Fastify's. */
interface RequestLike {
  id?: unknown
  info?: { id?: unknown; remoteAddress?: string; remotePort?: number }
  socket?: { remoteAddress?: string; remotePort?: number }
  method: string
  originalUrl?: string
  path?: unknown
  url?: string | { path?: string }
  query?: unknown
  params?: unknown
  headers: Record<string, unknown>
  raw?: unknown
}

/** What res() reads of a response: Node's ServerResponse (or an older one with `_headers`). */
interface ResponseLike {
  headersSent?: boolean
  statusCode: number
  getHeaders?: () => Record<string, unknown>
  _headers?: Record<string, unknown>
}

/** Node's IncomingMessage (and Express/Hapi/Fastify requests) to a plain object. */
export function req(request: RequestLike): SerializedRequest {
  const connection = request.info || request.socket
  const out = Object.create(requestPrototype) as SerializedRequest
  out.id =
    typeof request.id === 'function'
      ? (request.id as () => unknown)()
      : request.id || (request.info ? request.info.id : undefined)
  out.method = request.method
  if (request.originalUrl) {
    out.url = request.originalUrl
  } else {
    const path = request.path
    // A parsed URL object (Hapi's) gives its `path`; the string a request usually has is read as such.
    out.url = (
      typeof path === 'string' ? path : request.url ? (request.url as { path?: string }).path || request.url : undefined
    ) as string
  }
  if (request.query) out.query = request.query
  if (request.params) out.params = request.params
  out.headers = request.headers
  out.remoteAddress = connection && connection.remoteAddress
  out.remotePort = connection && connection.remotePort
  out.raw = request.raw || request
  return out
}

export interface SerializedResponse {
  statusCode: number | null
  headers: Record<string, unknown>
  raw: unknown
}

/** Node's ServerResponse to `{ statusCode, headers }`; statusCode is null until headers are sent. */
export function res(response: ResponseLike): SerializedResponse {
  const out = Object.create(responsePrototype) as SerializedResponse
  out.statusCode = response.headersSent ? response.statusCode : null
  out.headers = (response.getHeaders ? response.getHeaders() : response._headers) as Record<string, unknown>
  out.raw = response
  return out
}

export function mapHttpRequest(request: unknown): { req: SerializedRequest } {
  return { req: req(request as RequestLike) }
}

export function mapHttpResponse(response: unknown): { res: SerializedResponse } {
  return { res: res(response as ResponseLike) }
}

export function wrapErrorSerializer(custom: Serializer): Serializer {
  if (custom === err) return custom
  return (value) => custom(err(value))
}

export function wrapRequestSerializer(custom: Serializer): Serializer {
  if (custom === req) return custom
  return (value) => custom(req(value as RequestLike))
}

export function wrapResponseSerializer(custom: Serializer): Serializer {
  if (custom === res) return custom
  return (value) => custom(res(value as ResponseLike))
}

export const stdSerializers = {
  err,
  errWithCause,
  req,
  res,
  mapHttpRequest,
  mapHttpResponse,
  wrapErrorSerializer,
  wrapRequestSerializer,
  wrapResponseSerializer,
}
