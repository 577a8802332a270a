// The agent's HTTP endpoint: /metrics, /health and the console, on `metrics.listen`. Loaded once the
// alert path is there (the console and node:http's server are not needed to read). A reload that
// moves the endpoint starts the new one before it closes the old, so an address already taken
// keeps the old one, logged.
import type { AgentConfig, ListenAddress } from '../config/types'
import type { AlertPath } from '../acknowledge/with-actions'
import type { SourceReader } from '../events/types'
import { collectAgentMetrics, type AgentCounters } from './agent-metrics'
import { createConsoleHandler } from './console/index'
import { consoleAccess, loginUrl, removeConsoleFiles, writeConsoleAddress, type ConsoleAccess } from './console-access'
import { createConsoleBackend } from './console-backend'
import type { Fleet } from './fleet'
import type { AgentKinds } from './kinds'
import type { AgentLogger } from './logger'
import { startMetricsServer, type Metric, type MetricsServer } from './metrics-server'
import type { StoreStats } from '../sandbox/types'
import type { MissedCallAcks } from './missed-call-acks'
import type { TestPages } from './test-pages'

export interface MetricsEndpoint {
  readonly url: string | undefined
  /** Listens where the config says (nothing without `metrics.listen`). */
  start(): Promise<void>
  /** Moves to `next` when it differs from what runs; true when it moved (or closed, or opened). */
  apply(next: AgentConfig['metrics']): Promise<boolean>
  close(): Promise<void>
  /** Where the command line finds the console: `console.json`, and a generated token. */
  removeConsoleFiles(): void
  /** A fresh one-time login URL of the console (`<url>/#login=<code>`); undefined when none is served. */
  loginUrl(): string | undefined
}

export interface MetricsEndpointOptions {
  /** The config that runs now (a reload changes it). */
  config: () => AgentConfig
  readers: () => readonly SourceReader[]
  path: AlertPath
  acks: MissedCallAcks
  fleet: Fleet | undefined
  counters: AgentCounters
  log: AgentLogger
  now: () => number
  /** The embedded sandbox's store, when it runs in this process: its size and its byte cap's drops. */
  sandboxStats?: (() => StoreStats) | undefined
  /** `logx-agent test-page` through the console (closed with the endpoint). */
  testPages?: TestPages | undefined
  /** The kind table (issue #29): its metrics, and the console's kinds. */
  kinds?: AgentKinds | undefined
}

/** The embedded sandbox's store: a page flooding it shows here before memory runs out. */
function sandboxMetrics(stats: StoreStats): Metric[] {
  const gauge = (name: string, help: string, value: number): Metric => ({
    name,
    help,
    type: 'gauge',
    samples: [{ value }],
  })
  return [
    gauge('logx_agent_sandbox_records', 'records the embedded sandbox keeps', stats.records),
    gauge('logx_agent_sandbox_bytes', "bytes of the embedded sandbox's records (JSON text)", stats.bytes),
    {
      name: 'logx_agent_sandbox_evicted_total',
      help: 'records the embedded sandbox dropped, oldest first, to stay within its byte cap',
      type: 'counter',
      samples: [{ value: stats.evicted }],
    },
  ]
}

export function createMetricsEndpoint(options: MetricsEndpointOptions): MetricsEndpoint {
  const { config, path, fleet, log, now } = options
  const { pipeline, dispatcher } = path
  const loadedAt = now()
  const backend = createConsoleBackend(path, config, () => loadedAt, now, fleet, options.testPages)
  if (options.kinds !== undefined) backend.kinds = options.kinds
  // The token is made (or read) when a console is first served, once per start: a reload that moves
  // the console keeps it. An agent without metrics.listen serves none, and makes no token.
  const servesConsole = config().console.enabled
  let access: ConsoleAccess | undefined
  let server: MetricsServer | undefined

  const consoleFor = (listen: ListenAddress) => {
    if (!servesConsole || !config().console.enabled) return undefined
    access ??= consoleAccess(config())
    return createConsoleHandler({
      backend,
      ...access,
      host: listen.host,
      now,
      onError: (err) => log.error({ err }, 'console: the request failed'),
    })
  }
  const metrics = () => [
    ...collectAgentMetrics(options.readers(), pipeline, dispatcher, options.counters, now(), {
      actions: path.actions,
      acks: options.acks,
    }),
    ...(fleet?.metrics() ?? []),
    ...(options.kinds?.metrics() ?? []),
    ...(options.sandboxStats === undefined ? [] : sandboxMetrics(options.sandboxStats())),
  ]
  const health = () => {
    const readers = options.readers()
    const failed = readers.filter((r) => r.failure !== undefined).map((r) => ({ source: r.name, failure: r.failure }))
    const ours = {
      ok: failed.length === 0,
      sources: readers.length,
      failed,
      outboxDepth: dispatcher.stats().depth,
      incidentsOpen: pipeline.stats().openIncidents,
    }
    // Redis out of reach is degraded, not down: the agent still pages, on its own (fail open).
    return fleet === undefined ? ours : { ...ours, status: fleet.health().status, cluster: fleet.health() }
  }
  async function listenAt(listen: ListenAddress): Promise<MetricsServer> {
    const consoleHandler = consoleFor(listen)
    const started = await startMetricsServer(listen, metrics, health, consoleHandler)
    // Where the command line finds the running agent's console.
    if (consoleHandler !== undefined && access !== undefined)
      writeConsoleAddress(config().stateDir, started.url, access.identityKey)
    return started
  }

  return {
    get url() {
      return server?.url
    },
    async start() {
      const listen = config().metrics?.listen
      if (listen !== undefined) server = await listenAt(listen)
    },
    async apply(next) {
      if (JSON.stringify(next) === JSON.stringify(config().metrics)) return false
      let started: MetricsServer | undefined
      if (next !== undefined) {
        try {
          started = await listenAt(next.listen)
        } catch (err) {
          log.error({ err }, `metrics stay at ${server?.url ?? '(none)'}: ${(err as Error).message}`)
          return false
        }
      }
      await server?.close()
      server = started
      log.info(
        { metrics: server?.url },
        server === undefined ? 'metrics endpoint closed' : `metrics now at ${server.url}/metrics`,
      )
      return true
    },
    async close() {
      const closing = server
      server = undefined
      await closing?.close()
      await options.testPages?.close()
    },
    removeConsoleFiles() {
      removeConsoleFiles(config().stateDir)
    },
    loginUrl() {
      if (server === undefined || access === undefined) return undefined
      return loginUrl(server.url, access.logins.issueCode(now()).code)
    },
  }
}
