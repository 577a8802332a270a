// The sandbox HTTP server: refuses what request-guard.ts refuses (other sites' pages, rebound names,
// bodies that are not JSON or too large), routes the rest to the API, webhook, control and inbox
// handlers and applies fault rules around the API and webhook ones (what a fault does is
// fault-replies.ts's; the options and the announced URLs are sandbox-options.ts's).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { logxVersion } from '../messaging/version'
import { handleApi, resolveApiOperation } from './api-routes'
import { CONTROL_PREFIX, handleControl } from './control-routes'
import { openDataDir } from './data-dir'
import { SandboxError, SandboxErrorCodes } from './errors'
import { afterHandler, beforeHandler } from './fault-replies'
import { createFaultSet, type FaultSet } from './faults'
import { renderInbox } from './inbox-page'
import { createListingCache, type ListingCache } from './listing'
import { createLiveEvents, type LiveEvents } from './live-events'
import { apiError, BodyTooLargeError, MAX_BODY_BYTES, parseJsonBody, readBody, writeReply, type Reply } from './reply'
import { guardRequest } from './request-guard'
import { remoteWarning, resolveSandboxOptions, sandboxInfo, type ResolvedSandboxOptions } from './sandbox-options'
import { seedDefaults } from './seed'
import { createStore } from './store'
import type { Sandbox, SandboxInfo, SandboxOptions, Store } from './types'
import { handleActivities, handleLead, resolveWebhook } from './webhook-routes'

/** How long the sandbox keeps an idle keep-alive connection open. */
export const SANDBOX_KEEP_ALIVE_TIMEOUT_MS = 30_000

interface RouterParts {
  resolved: ResolvedSandboxOptions
  store: Store
  faults: FaultSet
  live: LiveEvents
  listings: ListingCache
  info(): SandboxInfo
}

interface ParsedRequest {
  method: string
  url: URL
  body: unknown
  bodyIsJson: boolean
}

function controlReply(request: ParsedRequest, parts: RouterParts): Reply {
  const { method, url } = request
  if (!request.bodyIsJson) return apiError(400, '(body): not valid JSON', '(body)')
  const { store, faults } = parts
  const reply = handleControl(method, url.pathname, url.searchParams, request.body, {
    store,
    faults,
    info: parts.info,
    reset() {
      store.reset()
      faults.clear()
      seedDefaults(store)
    },
  })
  return reply ?? apiError(404, `no control route ${method} ${url.pathname}`)
}

/** An API or webhook request, with the faults planned for its route around its handler. */
async function routedRequest(req: IncomingMessage, res: ServerResponse, request: ParsedRequest, parts: RouterParts) {
  const { method, url } = request
  // forEach, not Object.fromEntries: same last-one-wins object, without the iterator protocol
  // (a third of the route's own time on a listing poll).
  const query: Record<string, string> = {}
  url.searchParams.forEach((value, name) => {
    query[name] = value
  })
  const apiOperation = resolveApiOperation(url.pathname, query)
  const webhook = apiOperation === undefined ? resolveWebhook(url.pathname) : undefined
  if (apiOperation === undefined && webhook === undefined) {
    return writeReply(res, apiError(404, `no route ${method} ${url.pathname}`))
  }
  const plan = parts.faults.plan(apiOperation ?? webhook?.operation ?? 'unknown')
  // A timer of its own, not node:timers/promises: the module is 0.07 MB for this one wait.
  if (plan.latencyMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, plan.latencyMs))
  const before = beforeHandler(plan.action)
  if (before.kind === 'drop') return req.socket.destroy()
  if (before.kind === 'reply') return writeReply(res, before.reply)

  const { resolved, store } = parts
  const handled = { method, headers: req.headers, body: request.body, bodyIsJson: request.bodyIsJson }
  let reply: Reply
  if (apiOperation !== undefined) {
    reply = handleApi(apiOperation, { ...handled, query }, store, resolved.apiKey, parts.listings)
  } else if (webhook?.operation === 'create_lead') {
    reply = handleLead(handled, webhook.account, resolved.leadAccount, store)
  } else {
    reply = handleActivities(handled, resolved.activityToken, store)
  }
  const after = afterHandler(plan.action, reply)
  if (after === undefined) return req.socket.destroy()
  writeReply(res, after)
}

async function route(req: IncomingMessage, res: ServerResponse, parts: RouterParts): Promise<void> {
  const method = req.method ?? 'GET'
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid')
  const path = url.pathname
  const control = path.startsWith(CONTROL_PREFIX)
  // A send or a webhook call becomes a record of about its size: its body is capped at a record's.
  const maxBody = control ? MAX_BODY_BYTES : parts.resolved.maxRecordBytes
  const verdict = guardRequest(
    { headers: req.headers, port: req.socket.localPort ?? 0 },
    parts.resolved.loopback,
    maxBody,
  )
  if (!verdict.ok) return writeReply(res, apiError(verdict.status, verdict.error, verdict.field))
  if (method === 'GET' && (path === '/' || path === '/index.html')) {
    const page = renderInbox()
    const contentType = 'text/html; charset=utf-8'
    return writeReply(res, { type: 'text', status: 200, contentType, body: page.html, headers: page.headers })
  }
  if (method === 'GET' && path === `${CONTROL_PREFIX}events`) return parts.live.attach(req, res)
  let text: string
  try {
    text = await readBody(req, maxBody)
  } catch (err) {
    if (err instanceof BodyTooLargeError)
      writeReply(res, apiError(413, `(body): larger than ${maxBody} bytes`, '(body)'))
    return
  }
  const parsed = parseJsonBody(text)
  const request = { method, url, body: parsed.ok ? parsed.value : undefined, bodyIsJson: parsed.ok }
  if (control) return writeReply(res, controlReply(request, parts))
  await routedRequest(req, res, request, parts)
}

function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err) => {
      const message = `cannot listen on ${host}:${port}: ${err.message}`
      reject(new SandboxError(SandboxErrorCodes.LISTEN, message, { cause: err }))
    })
    server.listen(port, host, () => resolve())
  })
}

/** Starts a sandbox and resolves once it listens; `info` holds its URLs. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveSandboxOptions(options)
  const dataDir = options.dataDir === undefined ? undefined : openDataDir(options.dataDir)
  const store = createStore({
    retention: resolved.retention,
    maxBytes: resolved.maxStoreBytes,
    ...(dataDir === undefined ? {} : { journal: dataDir.journal, initial: dataDir.entries }),
  })
  if (store.count('instance') === 0) seedDefaults(store)
  const faults = createFaultSet(resolved.faults, options.random)
  const live = createLiveEvents(store)
  let info: SandboxInfo | undefined
  const parts: RouterParts = {
    resolved,
    store,
    faults,
    live,
    listings: createListingCache(store),
    info() {
      if (info === undefined) throw new Error('sandbox is not listening yet')
      return info
    },
  }
  const server = createServer((req, res) => {
    route(req, res, parts).catch((err: unknown) => {
      if (!res.headersSent) writeReply(res, apiError(500, `sandbox bug: ${(err as Error).message}`))
      else res.destroy()
    })
  })
  // Node's default is 5 s, announced as `Keep-Alive: timeout=5`. Idle sockets are then closed so soon
  // that a client whose event loop is busy (the agent, with this sandbox embedded in it) may pick one
  // just as it is closed. 30 s, and the messaging client keeps an idle socket at most half of what
  // the server announces (15 s here), so a stalled loop has 15 s of room.
  server.keepAliveTimeout = SANDBOX_KEEP_ALIVE_TIMEOUT_MS
  await listen(server, resolved.host, resolved.port)
  info = sandboxInfo(resolved, (server.address() as AddressInfo).port, options.dataDir, logxVersion())
  if (info.remote) {
    const warn = options.onWarning ?? ((message: string) => process.stderr.write(`${message}\n`))
    warn(remoteWarning(info.listening))
  }
  let closing: Promise<void> | undefined
  return {
    info,
    apiKey: resolved.apiKey,
    activityToken: resolved.activityToken,
    store,
    faults,
    close() {
      closing ??= new Promise<void>((resolve) => {
        live.closeAll()
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}
