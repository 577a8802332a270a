// What a planned fault does to a request, pure (server.ts applies it):
// 1. a drop before the handler: the socket is destroyed, the handler does not run (nothing stored);
// 2. an error: its status and message, the handler does not run;
// 3. a rate limit: 429 with Retry-After in seconds, the handler does not run;
// 4. a drop after the handler: it runs (the record is stored), then the socket is destroyed;
// 5. a malformed body: the handler runs, and the reply is replaced by the broken body asked for;
// 6. no fault: the handler's reply.
import type { FaultAction, MalformedBody } from './faults'
import { apiError, json, type Reply } from './reply'

/** Before the handler: `run` it, or answer without it (`reply`), or `drop` the socket. */
export type BeforeHandler = { kind: 'run' } | { kind: 'drop' } | { kind: 'reply'; reply: Reply }

export function beforeHandler(action: FaultAction | undefined): BeforeHandler {
  if (action?.kind === 'drop' && action.phase === 'before') return { kind: 'drop' }
  if (action?.kind === 'error') return { kind: 'reply', reply: apiError(action.status, action.message) }
  if (action?.kind === 'rate-limit') {
    const body = { status: 'error', error: 'injected fault: rate limited' }
    return { kind: 'reply', reply: json(429, body, { 'retry-after': String(action.retryAfterSeconds) }) }
  }
  return { kind: 'run' }
}

/** After the handler: the reply to write, or undefined to drop the socket. */
export function afterHandler(action: FaultAction | undefined, reply: Reply): Reply | undefined {
  if (action?.kind === 'drop') return undefined
  return action?.kind === 'malformed' ? malformedReply(action.body) : reply
}

export function malformedReply(body: MalformedBody): Reply {
  switch (body) {
    case 'truncated-json':
      return { type: 'text', status: 200, contentType: 'application/json', body: '{"status":"success","data":{"id":"' }
    case 'html':
      return {
        type: 'text',
        status: 200,
        contentType: 'text/html',
        body: '<html><body><h1>Service temporarily unavailable</h1></body></html>',
      }
    case 'error-field':
      return json(200, { status: 'success', error: 'injected fault: the provider rejected the request' })
    case 'empty-json':
      return { type: 'text', status: 200, contentType: 'application/json', body: '' }
  }
}
