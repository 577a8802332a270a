// The agent's running sources: one reader per source, started before the alert path exists (they
// read at once and handle what they read once it is there), brought in line with a reloaded config,
// and closed. /health and /metrics read `running`.
import type { IntakeSourceConfig, SourceConfig } from '../config/types'
import type { AlertPipeline, Dispatcher } from '../delivery/types'
import type { SourceReader } from '../events/types'
import { DaemonError, DaemonErrorCodes } from './errors'
import { createIntakeReaders, type IntakePath } from './intake-readers'
import type { AgentKinds } from './kinds'
import type { AgentLogger } from './logger'
import { planSourceChanges } from './source-changes'
import { startSourceReader } from './source-reader'
import type { Tap } from './tap'

export interface SourceReaders {
  /** The readers now running, in the order they started. */
  readonly running: readonly SourceReader[]
  /** Starts a reader for `source` and adds it to `running`. */
  start(source: SourceConfig): Promise<void>
  /** The alert path is there: the readers handle what they read, and checkpoint after its outbox. */
  open(path: IntakePath): void
  /** The agent did not start: a reader waiting for the alert path stops waiting. */
  abandon(): void
  /**
   * The running readers brought in line with `next` (source-changes.ts). A source that cannot
   * start is logged and, when it ran before, started again as it was; the others go on either way.
   */
  apply(previous: readonly SourceConfig[], next: readonly SourceConfig[]): Promise<void>
  closeAll(): Promise<void>
}

export interface SourceReadersOptions {
  stateDir: string
  log: AgentLogger
  now: () => number
  tap: Tap | undefined
  /** The agent's kinds: a kind new in the lines a checkpoint commits is on disk before it (kinds.ts). */
  kinds?: Pick<AgentKinds, 'sync'> | undefined
}

/**
 * What a checkpoint write waits for: the kinds, then the outbox. A power cut after the checkpoint and
 * before the kinds' fsync would lose a new kind for good: its lines are not read again, so it would be
 * met again later as new. kinds.sync() does nothing when nothing was appended.
 */
function checkpointSyncs(kinds: Pick<AgentKinds, 'sync'> | undefined) {
  return {
    onLoop(dispatcher: Dispatcher | undefined): void {
      kinds?.sync()
      dispatcher?.sync()
    },
    offLoop(dispatcher: Dispatcher | undefined): Promise<void> | undefined {
      kinds?.sync()
      return dispatcher?.syncAsync()
    },
  }
}

export function createSourceReaders(options: SourceReadersOptions): SourceReaders {
  const { log } = options
  const running: SourceReader[] = []
  let pipeline: AlertPipeline | undefined
  let dispatcher: Dispatcher | undefined
  let alertPath: IntakePath | undefined
  const intakes = createIntakeReaders(log, options.now)
  const syncs = checkpointSyncs(options.kinds)
  let open = (): void => {}
  let abandon: (err: Error) => void = () => {}
  const ready = new Promise<void>((resolve, reject) => {
    open = resolve
    abandon = reject
  })
  ready.catch(() => undefined)

  async function startReader(source: SourceConfig): Promise<SourceReader> {
    // A network source starts once the alert path is there (agent.ts): its sink journals into it.
    if (source.intake !== undefined) return intakes.start(source as IntakeSourceConfig, alertPath as IntakePath)
    const readerOptions = {
      source,
      stateDir: options.stateDir,
      pipeline: () => pipeline as AlertPipeline,
      log,
      now: options.now,
      tap: options.tap,
      // Checkpoints are fsynced: the alerts of the lines they commit must be on disk first.
      beforeCheckpointWrite: () => syncs.onLoop(dispatcher),
    }
    // A file checkpoint waits for the outbox's fsync on libuv's threads: done on the event loop, it
    // held the alerts of lines read meanwhile for its few milliseconds, every checkpoint. Before
    // `ready` nothing was handled, so there is nothing to sync.
    if (source.type !== 'journald')
      return startSourceReader({
        ...readerOptions,
        ready,
        beforeCheckpointWrite: () => syncs.offLoop(dispatcher),
      })
    // Loaded only by configs that read the journal; it starts once the alert path is there.
    const { startJournaldReader } = await import('../journald/journald-reader.js')
    try {
      return await startJournaldReader(readerOptions)
    } catch (err) {
      throw new DaemonError(DaemonErrorCodes.SOURCE, (err as Error).message, { cause: err })
    }
  }

  async function startLogged(source: SourceConfig, previous: SourceConfig | undefined): Promise<void> {
    try {
      running.push(await startReader(source))
      const where =
        source.type === 'journald'
          ? { journald: source.journald }
          : source.intake !== undefined
            ? { listen: source.intake.listen }
            : { paths: source.paths }
      log.info(
        { source: source.name, ...where },
        previous === undefined ? 'source added' : 'source changed: reading again from its checkpoint',
      )
    } catch (err) {
      log.error({ err, source: source.name }, `source ${source.name} could not start: ${(err as Error).message}`)
      if (previous !== undefined) running.push(await startReader(previous))
    }
  }

  return {
    running,
    async start(source) {
      running.push(await startReader(source))
    },
    open(path) {
      pipeline = path.pipeline
      dispatcher = path.dispatcher
      alertPath = path
      open()
    },
    abandon() {
      abandon(new Error('the agent did not start'))
    },
    async apply(previous, next) {
      const changes = planSourceChanges(
        running.map((reader) => reader.name),
        previous,
        next,
      )
      for (const { name, removed } of changes.stop) {
        const reader = running.find((r) => r.name === name) as SourceReader
        await reader.close()
        running.splice(running.indexOf(reader), 1)
        if (removed) log.info({ source: name }, 'source removed: no longer read (its checkpoint is kept)')
      }
      for (const { source, previous: old } of changes.start) await startLogged(source, old)
    },
    async closeAll() {
      for (const reader of running) await reader.close()
    },
  }
}
