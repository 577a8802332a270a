// The agent assembled, as ordered steps each leaving its undo (undo-stack.ts): state_dir (0700, files
// 0600, damaged files said: state-dir.ts) -> lock -> one reader per file source, reading at once ->
// messaging endpoint (embedded sandbox or real API) -> the alert path of agent/delivery (incident state,
// file outbox, pipeline), then the readers handle what they read
// -> missed-call acks -> metrics and console -> journald sources -> one clock -> the digest. A step that fails
// undoes the ones before it, in reverse. What only the alert path needs (node:http, the sandbox, the
// console) is loaded after the readers started: a start reads its first bytes without waiting for it.
// A reload is reload.ts; stopping (the steps the other way, the outbox drained) is stop.ts.
import type { AgentConfig } from '../config/types'
import { join } from 'node:path'
import { hostname } from 'node:os'
import type { AlertPath } from '../acknowledge/with-actions'
import type { AlertSetup } from '../delivery/types'
import { clockOf, envNumber } from './agent-env'
import type { Fleet } from './fleet'
import { acquireInstanceLock } from './instance-lock'
import { createAgentKinds, kindsSettingsOf, type AgentKinds } from './kinds'
import { prepareStateDir } from './state-dir'
import type { AgentLogger } from './logger'
import type { MessagingEndpoint } from './messaging-endpoint'
import type { MissedCallAcks } from './missed-call-acks'
import { reloadAgent } from './reload'
import type { RunningAgent, StopResult } from './running-agent'
import { createSourceReaders } from './source-readers'
import { stopAgent } from './stop'
import type { Tap } from './tap'
import { createUndoStack, type UndoStack } from './undo-stack'

export type { StopResult } from './running-agent'

export interface AgentOptions {
  log: AgentLogger
  /** Period of the engine's clock (group_wait, repeat, escalation, resolve); default 1000 ms. */
  tickMs?: number
  now?: () => number
  /** Pass-everything mode (`--tap`): every line each source reads goes here too. */
  tap?: Tap | undefined
}

export interface Agent {
  readonly endpoint: Pick<MessagingEndpoint, 'mode' | 'baseUrl' | 'inboxUrl'>
  readonly metricsUrl: string | undefined
  /** Where a network source takes events (its URLs, with the port a `:0` got); undefined for another. */
  intakeUrls(source: string): readonly string[] | undefined
  /** A fresh one-time login URL of the console; undefined when none is served. */
  consoleLoginUrl(): string | undefined
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

interface AlertSide {
  endpoint: MessagingEndpoint
  fleet: Fleet | undefined
  path: AlertPath
  setupOf: (config: AgentConfig) => AlertSetup
  startAcks: (config: AgentConfig, path: AlertPath) => MissedCallAcks
}

/** The messaging endpoint, the fleet's shared state (with `cluster:`) and the alert path. */
async function startAlertSide(
  config: AgentConfig,
  log: AgentLogger,
  now: () => number,
  undo: UndoStack,
  kinds: AgentKinds,
): Promise<AlertSide> {
  const [{ startMessagingEndpoint }, { createAlertPath }, { setupOfConfig }, { startMissedCallAcks }] =
    await Promise.all([
      import('./messaging-endpoint.js'),
      import('../acknowledge/with-actions.js'),
      import('../delivery/alert-setup.js'),
      import('./missed-call-acks.js'),
    ])
  const endpoint = await startMessagingEndpoint(config.messaging)
  undo.push(() => endpoint.close())
  // In a fleet, the shared state first: the outbox may send what the last run left as soon as it opens.
  const fleet =
    config.cluster === undefined ? undefined : await (await import('./fleet.js')).startFleet(config.cluster, log, now)
  if (fleet !== undefined) undo.push(() => fleet.close())
  if (fleet !== undefined) kinds.joinFleet(fleet.cluster.kinds)
  const path = createAlertPath({
    setup: kinds.setupWith(setupOfConfig(config, endpoint.secrets), config),
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
  undo.push(() => path.close())
  await fleet?.attach(path)
  const startAcks = (running: AgentConfig, alertPath: AlertPath): MissedCallAcks =>
    startMissedCallAcks(running, {
      path: alertPath,
      api: { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey },
      stateDir: running.stateDir,
      timeoutMs: envNumber('LOGX_AGENT_MESSAGING_TIMEOUT_MS'),
      log,
      now,
    })
  const setupOf = (next: AgentConfig): AlertSetup => kinds.setupWith(setupOfConfig(next, endpoint.secrets), next)
  return { endpoint, fleet, path, setupOf, startAcks }
}

/** The start's steps in order; each pushes its undo once it has made what the undo takes apart. */
async function startSteps(config: AgentConfig, options: AgentOptions, undo: UndoStack): Promise<RunningAgent> {
  const { log } = options
  const now = options.now ?? clockOf(process.env.LOGX_AGENT_CLOCK_SKEW_MS)
  undo.push(prepareStateDir(config.stateDir, log))
  const lock = acquireInstanceLock(config.stateDir)
  undo.push(() => lock.release())
  // The kinds first: an engine is handed the table restored from state_dir.
  const kinds = createAgentKinds({ stateDir: config.stateDir, host: hostname(), log, now, settings: kindsSettingsOf })
  undo.push(() => kinds.stop())
  // The readers start first and read while the rest starts; they handle lines once it has.
  const readers = createSourceReaders({ stateDir: config.stateDir, log, now, tap: options.tap, kinds })
  undo.push(async () => {
    // A reader waiting for the alert path must see the start fail before it is closed.
    readers.abandon()
    await readers.closeAll()
  })
  for (const source of config.sources) if (source.type === 'file') await readers.start(source)
  // No turn of the event loop is given to the readers here: reading 4 MB ahead while the rest
  // loads cost 5% of throughput and 3 MB of peak RSS on agentbench; they read while it waits.
  const { endpoint, fleet, path, setupOf, startAcks } = await startAlertSide(config, log, now, undo, kinds)
  readers.open(path)
  const acks = startAcks(config, path)
  undo.push(() => acks.stop())
  const counters = { reloads: 0, reloadFailures: 0 }
  // One object whose `config` a reload replaces: the console reads it through `live`.
  const live = { config }
  const { createMetricsEndpoint } = await import('./metrics-endpoint.js')
  const readersNow = () => readers.running
  const { createTestPages } = await import('./test-pages.js')
  const api = { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey }
  const { inboxUrl } = endpoint
  const testPages = createTestPages({ path, config: () => live.config, api, inboxUrl, host: hostname(), log, now })
  const metrics = createMetricsEndpoint({
    testPages,
    config: () => live.config,
    readers: readersNow,
    path,
    acks,
    fleet,
    counters,
    log,
    now,
    sandboxStats: endpoint.sandboxStats,
    kinds,
  })
  undo.push(() => metrics.removeConsoleFiles())
  await metrics.start()
  undo.push(() => metrics.close())
  // journald and network sources (they start listening once the alert path can take what they hear).
  for (const source of config.sources) if (source.type !== 'file') await readers.start(source)
  const clock = setInterval(() => {
    try {
      path.pipeline.tick(now())
    } catch (err) {
      log.error({ err }, 'engine tick failed')
    }
  }, options.tickMs ?? 1000)
  clock.unref()
  undo.push(() => clearInterval(clock))
  const { createDigestSender } = await import('./digest.js')
  const digest = createDigestSender({
    config: () => live.config,
    stateDir: config.stateDir,
    path,
    kinds: () => kinds.entries(),
    log,
    now,
  })
  undo.push(() => digest.stop())
  digest.apply()
  return Object.assign(live, {
    log,
    now,
    lock,
    readers,
    endpoint,
    fleet,
    path,
    acks,
    metrics,
    clock,
    digest,
    counters,
    setupOf,
    kinds,
  })
}

/** The running agent's surface: reloads run one at a time, and stop() waits for the one in progress. */
function agentOf(running: RunningAgent): Agent {
  let stopping: Promise<StopResult> | undefined
  let applying: Promise<unknown> = Promise.resolve()
  const { endpoint } = running
  return {
    endpoint: { mode: endpoint.mode, baseUrl: endpoint.baseUrl, inboxUrl: endpoint.inboxUrl },
    get metricsUrl() {
      return running.metrics.url
    },
    intakeUrls: (source) => running.readers.running.find((reader) => reader.name === source)?.intake?.urls,
    consoleLoginUrl: () => running.metrics.loginUrl(),
    get config() {
      return running.config
    },
    apply(next) {
      const run = applying.then(async () => (stopping !== undefined ? [] : reloadAgent(running, next)))
      applying = run.catch(() => undefined)
      return run
    },
    countReloadFailure() {
      running.counters.reloadFailures++
    },
    stop(drainTimeoutMs) {
      stopping ??= stopAgent(running, drainTimeoutMs, applying)
      return stopping
    },
  }
}

export async function startAgent(initial: AgentConfig, options: AgentOptions): Promise<Agent> {
  const undo = createUndoStack()
  try {
    return agentOf(await startSteps(initial, options, undo))
  } catch (err) {
    await undo.undoAll()
    throw err
  }
}
