// The daemon's side of the intake sources (agent/intake/): one host for the agent, made once the
// alert path is there (its sink journals into the outbox), and each intake source as a SourceReader,
// so reload (source-changes.ts), /health and /metrics treat it as they treat a tailed file.
import type { IntakeSourceConfig } from '../config/types'
import type { AlertPipeline, Dispatcher } from '../delivery/types'
import type { SourceReader } from '../events/types'
import type { TailStats } from '../tail'
import type { IncidentState } from '../incidents/incident-state'
import type { IncidentActions } from '../acknowledge'
import type { IntakeHost, RunningIntake } from '../intake'
import { envNumber } from './agent-env'
import { DaemonError, DaemonErrorCodes } from './errors'
import type { AgentLogger } from './logger'

/** What the intake sink writes into: the alert path's pipeline, outbox and incident state. */
export interface IntakePath {
  pipeline: AlertPipeline
  dispatcher: Dispatcher
  state: IncidentState
  /** Resolves by an alert's sender, shared with the fleet (agent/acknowledge/source-resolves.ts). */
  actions?: Pick<IncidentActions, 'sourceResolved' | 'staleFiring' | 'rememberedResolves'> | undefined
}

/** The outbox's in-memory window (outbox-settings.ts): past it, the intake answers 503. */
const DEFAULT_MAX_QUEUED = 1000

/** No file is tailed; `linesRead` is the events accepted, so the per-source line counts include them. */
const tailStatsOf = (accepted: number): TailStats => ({
  files: 0,
  linesRead: accepted,
  bytesRead: 0,
  truncatedLines: 0,
  rotations: 0,
  truncations: 0,
  copiesFollowed: 0,
  released: 0,
  refusedLinks: 0,
  ticks: 0,
  checkpointWrites: 0,
})

function readerOf(running: RunningIntake, startedAt: number): SourceReader {
  return {
    name: running.name,
    stats: () => tailStatsOf(running.counts().accepted),
    files: () => [],
    parseErrors: 0,
    // Nothing is checkpointed: what is accepted is journaled before the sender hears so.
    checkpointAt: startedAt,
    failure: undefined,
    close: () => running.close(),
    intake: { urls: running.urls, counts: () => running.counts() },
  }
}

export interface IntakeReaders {
  start(source: IntakeSourceConfig, path: IntakePath): Promise<SourceReader>
}

export function createIntakeReaders(log: AgentLogger, now: () => number): IntakeReaders {
  let host: Promise<IntakeHost> | undefined
  async function hostFor(path: IntakePath): Promise<IntakeHost> {
    const { createIntakeHost, createIntakeSink } = await import('../intake/index.js')
    const maxQueued = envNumber('LOGX_AGENT_OUTBOX_MEMORY_ITEMS') ?? DEFAULT_MAX_QUEUED
    const sink = createIntakeSink({ ...path, resolver: path.actions, now, maxQueued })
    return createIntakeHost({ sink, log, now })
  }
  return {
    async start(source, path) {
      host ??= hostFor(path)
      try {
        return readerOf(await (await host).start(source), now())
      } catch (err) {
        throw new DaemonError(DaemonErrorCodes.SOURCE, (err as Error).message, { cause: err })
      }
    },
  }
}
