// The agent assembled: lock -> one reader per file source, reading at once -> messaging endpoint
// (embedded sandbox or real API) -> the alert path of agent/delivery (incident state, file outbox,
// pipeline), then the readers handle what they read -> metrics -> journald sources -> one clock.
// What only the alert path needs (node:http, the sandbox, the console) is loaded after the readers
// started: a start reads its first bytes without waiting for it.
// Stopping runs the other way: stop reading (offsets of handled lines are written), fire what waits
// in group_wait, drain the outbox within a bound, close.
import type { AgentConfig, ListenAddress, SourceConfig } from '../config/types'
import { join } from 'node:path'
import type { AlertPipeline } from '../delivery/alert-pipeline'
import type { Dispatcher } from '../delivery/dispatcher'
import type { AgentCounters } from './agent-metrics'
import type { ConsoleAccess } from './console-access'
import { DaemonError, DaemonErrorCodes } from './errors'
import { acquireInstanceLock, type InstanceLock } from './instance-lock'
import type { AgentLogger } from './logger'
import type { MessagingEndpoint } from './messaging-endpoint'
import type { MetricsServer } from './metrics-server'
import { startSourceReader, type SourceReader } from './source-reader'
import type { Tap } from './tap'

export interface AgentOptions {
  log: AgentLogger
  /** Period of the engine's clock (group_wait, repeat, escalation, resolve); default 1000 ms. */
  tickMs?: number
  now?: () => number
  /** Pass-everything mode (`--tap`): every line each source reads goes here too. */
  tap?: Tap | undefined
}

export interface StopResult {
  drained: boolean
  pending: number
}

export interface Agent {
  readonly endpoint: Pick<MessagingEndpoint, 'mode' | 'baseUrl' | 'inboxUrl'>
  readonly metricsUrl: string | undefined
  readonly config: AgentConfig
  /**
   * Applies a new config: rules, channels and silences at once, then its sources (a source added
   * starts reading, one removed stops, one changed starts over from its checkpoint) and the metrics
   * endpoint. Resolves with the keys that need a restart (messaging, state_dir).
   */
  apply(config: AgentConfig): Promise<string[]>
  countReloadFailure(): void
  stop(drainTimeoutMs: number): Promise<StopResult>
}

function restartOnly(a: AgentConfig, b: AgentConfig): string[] {
  const changed: string[] = []
  const listen = (c: AgentConfig): string =>
    c.messaging.mode === 'sandbox'
      ? `sandbox ${c.messaging.listen.host}:${c.messaging.listen.port}`
      : `remote ${c.messaging.baseUrl}`
  if (listen(a) !== listen(b)) changed.push('messaging')
  if (a.stateDir !== b.stateDir) changed.push('state_dir')
  // Secrets print as [secret]: a new password alone is not seen here, and needs a restart all the same.
  if (JSON.stringify(a.cluster) !== JSON.stringify(b.cluster)) changed.push('cluster')
  return changed
}

/**
 * Test and tuning knobs, read from the environment (not config keys): the outbox's in-memory window
 * (`LOGX_AGENT_OUTBOX_MEMORY_ITEMS`, default 1000), the age at which a notification stops being
 * retried (`LOGX_AGENT_OUTBOX_MAX_AGE_MS`, default 6 h), and the messaging client's per-attempt
 * timeout (`LOGX_AGENT_MESSAGING_TIMEOUT_MS`, default 10 s).
 */
function envNumber(name: string): number | undefined {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value >= 1 ? value : undefined
}

/**
 * The agent's clock: the system's, moved by `LOGX_AGENT_CLOCK_SKEW_MS` (tests only, environment not
 * config: a schedule's handoff or a night can then be minutes away instead of hours).
 */
function clockOf(skew: string | undefined): () => number {
  const ms = Number(skew)
  return skew === undefined || !Number.isFinite(ms) || ms === 0 ? Date.now : () => Date.now() + ms
}

export async function startAgent(initial: AgentConfig, options: AgentOptions): Promise<Agent> {
  const { log } = options
  const now = options.now ?? clockOf(process.env.LOGX_AGENT_CLOCK_SKEW_MS)
  const cleanup: (() => Promise<void> | void)[] = []
  const undo = async (): Promise<void> => {
    for (const fn of cleanup.reverse()) await Promise.resolve(fn()).catch(() => {})
  }
  let config = initial
  try {
    const lock: InstanceLock = acquireInstanceLock(config.stateDir)
    cleanup.push(() => lock.release())
    // The readers start first and read while the rest starts; they handle lines once it has.
    let markReady = (): void => {}
    let failReady: (err: Error) => void = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve
      failReady = reject
    })
    ready.catch(() => undefined)
    let pipelineRef: AlertPipeline | undefined
    let dispatcherRef: Dispatcher | undefined
    const readers: SourceReader[] = []
    cleanup.push(async () => {
      for (const r of readers) await r.close()
    })
    // Runs before the readers close (cleanup runs backwards): a reader waiting for `ready` must see it fail.
    cleanup.push(() => failReady(new Error('the agent did not start')))
    const startReader = async (source: SourceConfig): Promise<SourceReader> => {
      const readerOptions = {
        source,
        stateDir: config.stateDir,
        pipeline: () => pipelineRef as AlertPipeline,
        log,
        now,
        tap: options.tap,
        // Checkpoints are fsynced: the alerts of the lines they commit must be on disk first.
        beforeCheckpointWrite: () => dispatcherRef?.sync(),
      }
      // A file checkpoint waits for the outbox's fsync on libuv's threads: done on the event loop, it
      // held the alerts of lines read meanwhile for its few milliseconds, every checkpoint. Before
      // `ready` nothing was handled, so there is nothing to sync.
      if (source.type !== 'journald')
        return startSourceReader({ ...readerOptions, ready, beforeCheckpointWrite: () => dispatcherRef?.syncAsync() })
      // Loaded only by configs that read the journal. A journald reader is a SourceReader; it
      // starts once the alert path is there.
      const { startJournaldReader } = await import('../journald/journald-reader.js')
      try {
        const reader: SourceReader = await startJournaldReader(readerOptions)
        return reader
      } catch (err) {
        throw new DaemonError(DaemonErrorCodes.SOURCE, (err as Error).message, { cause: err })
      }
    }
    for (const source of config.sources) if (source.type !== 'journald') readers.push(await startReader(source))
    // No turn of the event loop is given to the readers here: reading 4 MB ahead while the rest
    // loads cost 5% of throughput and 3 MB of peak RSS on agentbench; they read while it waits.

    const [{ startMessagingEndpoint }, { createAlertPath }, { setupOfConfig }, { startMissedCallAcks }] =
      await Promise.all([
        import('./messaging-endpoint.js'),
        import('../delivery/alert-path.js'),
        import('../delivery/alert-setup.js'),
        import('./missed-call-acks.js'),
      ])
    const endpoint = await startMessagingEndpoint(config.messaging)
    cleanup.push(() => endpoint.close())
    // In a fleet, the shared state first: the outbox may send what the last run left as soon as it opens.
    const fleet =
      config.cluster === undefined ? undefined : await (await import('./fleet.js')).startFleet(config.cluster, log, now)
    if (fleet !== undefined) cleanup.push(() => fleet.close())
    const path = createAlertPath({
      setup: setupOfConfig(config, endpoint.secrets),
      statePath: join(config.stateDir, 'incidents.json'),
      timelinePath: join(config.stateDir, 'timeline.jsonl'),
      silencesPath: join(config.stateDir, 'silences.json'),
      outbox: {
        path: join(config.stateDir, 'outbox.jsonl'),
        memoryItems: envNumber('LOGX_AGENT_OUTBOX_MEMORY_ITEMS'),
        maxAgeMs: envNumber('LOGX_AGENT_OUTBOX_MAX_AGE_MS'),
      },
      api: { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey },
      crm:
        endpoint.crm === undefined
          ? undefined
          : { ...endpoint.crm, stateDir: config.stateDir, sharedLeads: fleet?.cluster.leads },
      timeoutMs: envNumber('LOGX_AGENT_MESSAGING_TIMEOUT_MS'),
      log,
      now: now(),
      fleet: fleet?.hooks,
    })
    cleanup.push(() => path.close())
    await fleet?.attach(path)
    const { pipeline, dispatcher } = path
    pipelineRef = pipeline
    dispatcherRef = dispatcher
    markReady()
    const acks = startMissedCallAcks(config, {
      path,
      api: { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey },
      stateDir: config.stateDir,
      timeoutMs: envNumber('LOGX_AGENT_MESSAGING_TIMEOUT_MS'),
      log,
      now,
    })
    cleanup.push(() => acks.stop())
    const counters: AgentCounters = { reloads: 0, reloadFailures: 0 }
    const [
      { collectAgentMetrics },
      { createConsoleHandler },
      { consoleAccess, removeConsoleFiles, writeConsoleAddress },
      { createConsoleBackend },
      { startMetricsServer },
    ] = await Promise.all([
      import('./agent-metrics.js'),
      import('./console/index.js'),
      import('./console-access.js'),
      import('./console-backend.js'),
      import('./metrics-server.js'),
    ])
    let metrics: MetricsServer | undefined
    const loadedAt = now()
    const backend = createConsoleBackend(
      path,
      () => config,
      () => loadedAt,
      now,
      fleet,
    )
    // The token is made (or read) when a console is first served, once per start: a reload that moves
    // the console keeps it. An agent without metrics.listen serves none, and makes no token.
    const servesConsole = config.console.enabled
    let access: ConsoleAccess | undefined
    cleanup.push(() => removeConsoleFiles(config.stateDir))
    const consoleFor = (listen: ListenAddress) => {
      if (!servesConsole || !config.console.enabled) return undefined
      access ??= consoleAccess(config)
      return createConsoleHandler({
        backend,
        ...access,
        host: listen.host,
        now,
        onError: (err) => log.error({ err }, 'console: the request failed'),
      })
    }
    const startMetrics = async (listen: ListenAddress): Promise<MetricsServer> => {
      const consoleHandler = consoleFor(listen)
      const server = await startMetricsServer(
        listen,
        () => [
          ...collectAgentMetrics(readers, pipeline, dispatcher, counters, now(), { actions: path.actions, acks }),
          ...(fleet?.metrics() ?? []),
        ],
        () => {
          const failed = readers
            .filter((r) => r.failure !== undefined)
            .map((r) => ({ source: r.name, failure: r.failure }))
          const health = {
            ok: failed.length === 0,
            sources: readers.length,
            failed,
            outboxDepth: dispatcher.stats().depth,
            incidentsOpen: pipeline.stats().openIncidents,
          }
          // Redis out of reach is degraded, not down: the agent still pages, on its own (fail open).
          return fleet === undefined ? health : { ...health, status: fleet.health().status, cluster: fleet.health() }
        },
        consoleHandler,
      )
      // Where the command line finds the running agent's console.
      if (consoleHandler !== undefined) writeConsoleAddress(config.stateDir, server.url)
      return server
    }
    if (config.metrics !== undefined) metrics = await startMetrics(config.metrics.listen)
    cleanup.push(() => metrics?.close())

    /**
     * The endpoint moved, added or removed. The new one listens before the old one closes, so a
     * failure (the address is taken) keeps the old one, logged; `metrics` keeps what really runs.
     */
    async function applyMetrics(next: AgentConfig['metrics']): Promise<void> {
      if (JSON.stringify(next) === JSON.stringify(config.metrics)) return
      let started: MetricsServer | undefined
      if (next !== undefined) {
        try {
          started = await startMetrics(next.listen)
        } catch (err) {
          log.error({ err }, `metrics stay at ${metrics?.url ?? '(none)'}: ${(err as Error).message}`)
          return
        }
      }
      await metrics?.close()
      metrics = started
      config = { ...config, metrics: next }
      log.info(
        { metrics: metrics?.url },
        metrics === undefined ? 'metrics endpoint closed' : `metrics now at ${metrics.url}/metrics`,
      )
    }

    for (const source of config.sources) if (source.type === 'journald') readers.push(await startReader(source))

    /**
     * The running readers brought in line with `next`. A reader stops (its checkpoint written)
     * before its replacement starts on the same checkpoint file, so a changed source resumes where
     * the old one had committed. A source that cannot start is logged and, when it was running
     * before, started again as it was; the other sources go on either way.
     */
    async function applySources(previous: readonly SourceConfig[], next: readonly SourceConfig[]): Promise<void> {
      const before = new Map(previous.map((source) => [source.name, source]))
      const wanted = new Map(next.map((source) => [source.name, source]))
      for (const reader of [...readers]) {
        const source = wanted.get(reader.name)
        if (source !== undefined && JSON.stringify(source) === JSON.stringify(before.get(reader.name))) continue
        await reader.close()
        readers.splice(readers.indexOf(reader), 1)
        if (source === undefined)
          log.info({ source: reader.name }, 'source removed: no longer read (its checkpoint is kept)')
      }
      for (const source of next) {
        if (readers.some((reader) => reader.name === source.name)) continue
        const old = before.get(source.name)
        try {
          readers.push(await startReader(source))
          const where = source.type === 'journald' ? { journald: source.journald } : { paths: source.paths }
          log.info(
            { source: source.name, ...where },
            old === undefined ? 'source added' : 'source changed: reading again from its checkpoint',
          )
        } catch (err) {
          log.error({ err, source: source.name }, `source ${source.name} could not start: ${(err as Error).message}`)
          if (old !== undefined) readers.push(await startReader(old))
        }
      }
    }
    const clock = setInterval(() => {
      try {
        pipeline.tick(now())
      } catch (err) {
        log.error({ err }, 'engine tick failed')
      }
    }, options.tickMs ?? 1000)
    clock.unref()
    cleanup.push(() => clearInterval(clock))

    let stopping: Promise<StopResult> | undefined
    // Reloads run one at a time, and stop() waits for the one in progress.
    let applying: Promise<unknown> = Promise.resolve()
    return {
      endpoint: { mode: endpoint.mode, baseUrl: endpoint.baseUrl, inboxUrl: endpoint.inboxUrl },
      get metricsUrl() {
        return metrics?.url
      },
      get config() {
        return config
      },
      apply(next) {
        const run = applying.then(async () => {
          if (stopping !== undefined) return []
          const ignored = restartOnly(config, next)
          const previous = config.sources
          pipeline.replace(setupOfConfig(next, endpoint.secrets), now())
          await acks.apply(next)
          // Keys that need a restart keep their running values; metrics changes as its endpoint does.
          config = {
            ...next,
            messaging: config.messaging,
            stateDir: config.stateDir,
            metrics: config.metrics,
            cluster: config.cluster,
          }
          await applySources(previous, next.sources)
          await applyMetrics(next.metrics)
          counters.reloads++
          return ignored
        })
        applying = run.catch(() => undefined)
        return run
      },
      countReloadFailure() {
        counters.reloadFailures++
      },
      stop(drainTimeoutMs) {
        // Each step runs whatever the one before did: a failing close must not keep the outbox undrained.
        const step = async (what: string, fn: () => unknown): Promise<void> => {
          try {
            await fn()
          } catch (err) {
            log.error({ err }, `stopping: ${what} failed`)
          }
        }
        stopping ??= (async () => {
          clearInterval(clock)
          await applying
          for (const r of readers) await step(`closing source ${r.name}`, () => r.close())
          await step('stopping the missed-call poller', () => acks.stop())
          await step('flushing the engine', () => pipeline.flush(now()))
          let result: StopResult = { drained: false, pending: dispatcher.stats().depth }
          await step('draining the outbox', async () => {
            result = await dispatcher.drain(drainTimeoutMs)
          })
          await step('closing the outbox', () => dispatcher.close())
          await step('leaving the fleet', () => fleet?.close())
          await step('closing the metrics server', () => metrics?.close())
          metrics = undefined
          await step('removing the console address', () => removeConsoleFiles(config.stateDir))
          await step('closing the messaging endpoint', () => endpoint.close())
          lock.release()
          return result
        })()
        return stopping
      },
    }
  } catch (err) {
    await undo()
    throw err
  }
}
