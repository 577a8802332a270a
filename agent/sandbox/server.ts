// The sandbox HTTP server: routes requests to the API, webhook, control and inbox handlers and
// applies fault rules around the API and webhook ones.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { logxVersion } from '../messaging/version'
import { handleApi, resolveApiOperation } from './api-routes'
import { CONTROL_PREFIX, handleControl, type SandboxInfo } from './control-routes'
import { openDataDir } from './data-dir'
import { SandboxError, SandboxErrorCodes } from './errors'
import { createFaultSet, parseFault, type Fault, type FaultAction, type FaultSet } from './faults'
import { INBOX_HTML } from './inbox-page'
import { createListingCache } from './listing'
import { createLiveEvents } from './live-events'
import { apiError, BodyTooLargeError, json, parseJsonBody, readBody, writeReply, type Reply } from './reply'
import { seedDefaults } from './seed'
import { createStore, type Store } from './store'
import {
  ACTIVITY_WEBHOOK_PATH,
  handleActivities,
  handleLead,
  LEAD_WEBHOOK_PREFIX,
  resolveWebhook,
} from './webhook-routes'

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1 (the control API has no auth). */
  host?: string
  /** Default 0: the OS picks a free port. */
  port?: number
  /** Expected `apikey` header; default `sandbox-api-key`. */
  apiKey?: string
  /** Expected `X-O-TOKEN` header; default `sandbox-activity-token`. */
  activityToken?: string
  /** The account segment of the lead webhook URL; default `sandbox`. */
  leadAccount?: string
  /** Persist records here (JSON lines) so they survive restarts; default: memory only. */
  dataDir?: string
  /** Most records kept per kind; default 10 000. */
  retention?: number
  /** Fault rules active from the start (same JSON as the control API). */
  faults?: readonly unknown[]
  /** Randomness for fault rates and random latency; tests pin it. */
  random?: () => number
}

export interface Sandbox {
  readonly info: SandboxInfo
  readonly apiKey: string
  readonly activityToken: string
  readonly store: Store
  readonly faults: FaultSet
  close(): Promise<void>
}

export const DEFAULT_API_KEY = 'sandbox-api-key'
export const DEFAULT_ACTIVITY_TOKEN = 'sandbox-activity-token'
export const DEFAULT_LEAD_ACCOUNT = 'sandbox'
/** How long the sandbox keeps an idle keep-alive connection open. */
export const SANDBOX_KEEP_ALIVE_TIMEOUT_MS = 30_000

function option(cond: boolean, path: string, message: string): void {
  if (!cond) throw new SandboxError(SandboxErrorCodes.INVALID_OPTION, `${path}: ${message}`, { path })
}

function malformedReply(body: 'truncated-json' | 'html' | 'error-field' | 'empty-json'): Reply {
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

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

/**
 * The control API has no key, and a missed call it simulates can acknowledge a real incident of an
 * agent in sandbox mode; so a browser on another site must not drive it (its POST of a text/plain
 * body needs no preflight). Browsers send `Origin` with such requests; curl and Node clients send none.
 */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin
  return origin === undefined || origin === `http://${req.headers.host ?? ''}`
}

/** Starts a sandbox and resolves once it listens; `info` holds its URLs. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 0
  const apiKey = options.apiKey ?? DEFAULT_API_KEY
  const activityToken = options.activityToken ?? DEFAULT_ACTIVITY_TOKEN
  const leadAccount = options.leadAccount ?? DEFAULT_LEAD_ACCOUNT
  const retention = options.retention ?? 10_000
  option(Number.isInteger(port) && port >= 0 && port <= 65535, 'port', 'must be an integer from 0 to 65535')
  option(apiKey !== '', 'apiKey', 'must not be empty')
  option(activityToken !== '', 'activityToken', 'must not be empty')
  option(/^[A-Za-z0-9._~-]+$/.test(leadAccount), 'leadAccount', 'must be URL-safe letters, digits, . _ ~ -')
  option(Number.isInteger(retention) && retention > 0, 'retention', 'must be a positive integer')
  const initialFaults: Fault[] = (options.faults ?? []).map((f, i) => parseFault(f, `faults[${i}]`))

  const dataDir = options.dataDir === undefined ? undefined : openDataDir(options.dataDir)
  const store = createStore({
    retention,
    ...(dataDir === undefined ? {} : { journal: dataDir.journal, initial: dataDir.entries }),
  })
  if (store.count('instance') === 0) seedDefaults(store)
  const faults = createFaultSet(initialFaults, options.random)
  const live = createLiveEvents(store)
  const listings = createListingCache(store)
  let info: SandboxInfo | undefined

  function currentInfo(): SandboxInfo {
    if (info === undefined) throw new Error('sandbox is not listening yet')
    return info
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET'
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid')
    const path = url.pathname

    if (method === 'GET' && (path === '/' || path === '/index.html')) {
      writeReply(res, { type: 'text', status: 200, contentType: 'text/html; charset=utf-8', body: INBOX_HTML })
      return
    }
    if (method === 'GET' && path === `${CONTROL_PREFIX}events`) {
      live.attach(req, res)
      return
    }

    let text: string
    try {
      text = await readBody(req)
    } catch (err) {
      if (err instanceof BodyTooLargeError) writeReply(res, apiError(413, '(body): larger than 1 MiB', '(body)'))
      return
    }
    const parsed = parseJsonBody(text)
    const body = parsed.ok ? parsed.value : undefined

    if (path.startsWith(CONTROL_PREFIX)) {
      if (method !== 'GET' && !sameOrigin(req)) {
        return writeReply(res, apiError(403, 'origin: another site may not change the sandbox', 'origin'))
      }
      if (!parsed.ok) return writeReply(res, apiError(400, '(body): not valid JSON', '(body)'))
      const reply = handleControl(method, path, url.searchParams, body, {
        store,
        faults,
        info: currentInfo,
        reset() {
          store.reset()
          faults.clear()
          seedDefaults(store)
        },
      })
      writeReply(res, reply ?? apiError(404, `no control route ${method} ${path}`))
      return
    }

    // forEach, not Object.fromEntries: same last-one-wins object, without the iterator protocol
    // (a third of the route's own time on a listing poll).
    const query: Record<string, string> = {}
    url.searchParams.forEach((value, name) => {
      query[name] = value
    })
    const apiOperation = resolveApiOperation(path, query)
    const webhook = apiOperation === undefined ? resolveWebhook(path) : undefined
    if (apiOperation === undefined && webhook === undefined) {
      writeReply(res, apiError(404, `no route ${method} ${path}`))
      return
    }
    const routeName = apiOperation ?? webhook?.operation ?? 'unknown'

    const plan = faults.plan(routeName)
    // A timer of its own, not node:timers/promises: the module is 0.07 MB for this one wait.
    if (plan.latencyMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, plan.latencyMs))
    const action: FaultAction | undefined = plan.action
    if (action?.kind === 'drop' && action.phase === 'before') {
      req.socket.destroy()
      return
    }
    if (action?.kind === 'error') return writeReply(res, apiError(action.status, action.message))
    if (action?.kind === 'rate-limit') {
      return writeReply(
        res,
        json(
          429,
          { status: 'error', error: 'injected fault: rate limited' },
          { 'retry-after': String(action.retryAfterSeconds) },
        ),
      )
    }

    const request = { method, headers: req.headers, body, bodyIsJson: parsed.ok }
    let reply: Reply
    if (apiOperation !== undefined) reply = handleApi(apiOperation, { ...request, query }, store, apiKey, listings)
    else if (webhook?.operation === 'create_lead') reply = handleLead(request, webhook.account, leadAccount, store)
    else reply = handleActivities(request, activityToken, store)

    if (action?.kind === 'drop') {
      req.socket.destroy()
      return
    }
    writeReply(res, action?.kind === 'malformed' ? malformedReply(action.body) : reply)
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (!res.headersSent) writeReply(res, apiError(500, `sandbox bug: ${(err as Error).message}`))
      else res.destroy()
    })
  })

  // Node's default is 5 s, announced as `Keep-Alive: timeout=5`. Idle sockets are then closed so soon
  // that a client whose event loop is busy (the agent, with this sandbox embedded in it) may pick one
  // just as it is closed. 30 s, and the messaging client keeps an idle socket at most half of what
  // the server announces (15 s here), so a stalled loop has 15 s of room.
  server.keepAliveTimeout = SANDBOX_KEEP_ALIVE_TIMEOUT_MS
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) =>
      reject(
        new SandboxError(SandboxErrorCodes.LISTEN, `cannot listen on ${host}:${port}: ${err.message}`, { cause: err }),
      ),
    )
    server.listen(port, host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const baseUrl = `http://${urlHost(host)}:${address.port}`
  info = {
    baseUrl,
    apiUrl: `${baseUrl}/api/v1/`,
    leadWebhookUrl: `${baseUrl}${LEAD_WEBHOOK_PREFIX}${leadAccount}`,
    activityWebhookUrl: `${baseUrl}${ACTIVITY_WEBHOOK_PATH}`,
    inboxUrl: `${baseUrl}/`,
    controlUrl: `${baseUrl}${CONTROL_PREFIX}`,
    eventsUrl: `${baseUrl}${CONTROL_PREFIX}events`,
    dataDir: options.dataDir ?? null,
    retention,
    version: logxVersion(),
  }
  const finalInfo = info

  let closing: Promise<void> | undefined
  return {
    info: finalInfo,
    apiKey,
    activityToken,
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
