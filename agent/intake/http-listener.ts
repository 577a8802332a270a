// One HTTP(S) server per intake address, shared by the sources listening there: each takes its own
// paths (config validation refused two on one path, and two tls settings on one address). Sources
// join and leave a running listener on reload; the last to leave closes it.
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { IntakeSourceConfig, ListenAddress } from '../config/types'
import { isLoopbackHost } from '../loopback-host'
import { IntakeError, IntakeErrorCodes } from './errors'
import { handleIntakeRequest, type IntakeRoute } from './http-request'
import type { IntakeLog, IntakeSink } from './types'

export interface HttpListener {
  /** `http://127.0.0.1:8080` (the port the system gave for port 0). */
  readonly origin: string
  readonly address: ListenAddress
  add(route: IntakeRoute): void
  /** Removes a source's routes; true when none is left (then close()). */
  remove(source: string): boolean
  close(): Promise<void>
}

export interface HttpListenerOptions {
  /** The first source on the address: its listen and tls are every source's there. */
  config: IntakeSourceConfig
  sink: IntakeSink
  log: IntakeLog
  now: () => number
}

/** How long close() lets requests in flight (waiting for the outbox's fsync) finish. */
const CLOSE_GRACE_MS = 5000

function serverOf(config: IntakeSourceConfig): Server {
  const tls = config.intake.tls
  if (tls === undefined) return createHttpServer()
  const verify = tls.clientCa !== undefined
  return createHttpsServer({
    cert: tls.cert,
    key: tls.key.reveal(),
    ...(verify ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
  })
}

async function listen(server: Server, address: ListenAddress, source: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address.port, address.host, () => {
      server.off('error', reject)
      resolve()
    })
  }).catch((err: unknown) => {
    throw new IntakeError(
      IntakeErrorCodes.LISTEN,
      `sources ${source}: cannot listen on ${address.host}:${address.port}: ${(err as Error).message}`,
      { cause: err },
    )
  })
  return (server.address() as AddressInfo).port
}

export async function startHttpListener(options: HttpListenerOptions): Promise<HttpListener> {
  const { config, sink, log, now } = options
  const routes = new Map<string, IntakeRoute>()
  const server = serverOf(config)
  let port = config.intake.listen.port
  const context = {
    routeOf: (path: string) => routes.get(path),
    loopback: isLoopbackHost(config.intake.listen.host),
    port: () => port,
    sink,
    log,
    now,
  }
  server.on('request', (request, response) => {
    handleIntakeRequest(context, request, response).catch((err: unknown) => {
      log.error({ err }, 'intake: a request failed')
    })
  })
  // A client that sends garbage or goes away mid-request is its own problem, never the agent's.
  server.on('clientError', (_err, socket) => socket.destroy())
  port = await listen(server, config.intake.listen, config.name)
  const { host } = config.intake.listen
  const scheme = config.intake.tls === undefined ? 'http' : 'https'
  // An IPv6 literal is bracketed in a URL.
  const origin = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`
  return {
    origin,
    address: { host, port },
    add(route) {
      for (const path of route.config.intake.paths) routes.set(path, route)
    },
    remove(source) {
      for (const [path, route] of routes) if (route.config.name === source) routes.delete(path)
      return routes.size === 0
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS)
      await closed
      clearTimeout(grace)
    },
  }
}
