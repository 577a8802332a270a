// `transport(options)`: a stream whose lines are written by targets running in a worker thread
// (thread-stream). What pino checks at the call is checked here, in the caller's thread, so a
// misspelt module name or an uncloneable option fails at the call with an error that names it;
// what only the worker finds out (a missing file, a module that is not a target, a target that
// throws, a worker that exits) is an 'error' event on the stream, as in pino.

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { WorkerOptions } from 'node:worker_threads'
import type ThreadStream from 'thread-stream'
import { callerFiles } from './caller.js'
import { LogxError, LogxErrorCodes } from './errors.js'
import { defaultStreamLevels } from './multistream.js'
import { registerExitHandler, unregisterExitHandler, type ExitEvent } from './on-exit.js'
import { bundlerOverride, resolveTarget } from './resolve-target.js'
import { transportUsesMultistreamSym } from './symbols.js'
import type { TransportWorkerData, WorkerRoute, WorkerStep } from './transport-worker.js'

// Target options default to `object` (pino: Record<string, any>): any options object, an
// interface-typed one (pino-pretty's PrettyOptions) included, and still no `any`.
export interface TransportTargetOptions<TargetOptions = object> {
  target: string
  options?: TargetOptions
  /** Minimum level this target receives (only with `targets`). Default info. */
  level?: string | number
}

export interface TransportPipelineEntry<TargetOptions = object> {
  pipeline: ReadonlyArray<TransportTargetOptions<TargetOptions>>
  level?: string | number
}

export interface TransportWorkerOptions extends WorkerOptions {
  /** false: nothing is flushed at process exit; the caller must call `end()`. Default true. */
  autoEnd?: boolean
}

export interface TransportOptions<TargetOptions = object> {
  target?: string
  options?: TargetOptions
  targets?: ReadonlyArray<TransportTargetOptions<TargetOptions> | TransportPipelineEntry<TargetOptions>>
  pipeline?: ReadonlyArray<TransportTargetOptions<TargetOptions>>
  worker?: TransportWorkerOptions
  /** File(s) that module names resolve from; default: the files on the call stack. */
  caller?: string | string[]
  /** Custom levels (name to value) used by per-target `level`; the factory passes its own. */
  levels?: Record<string, number>
  /** With `targets`: a line goes only to the targets with the highest matching level. */
  dedupe?: boolean
  /** Write synchronously into the worker's buffer. Default false. */
  sync?: boolean
  /**
   * On SIGTERM/SIGINT, when the app has no listener of its own for the signal: end the worker
   * (targets deliver what they hold, as at exit) before the signal ends the process. Default true;
   * false leaves the signals alone (pino's behaviour: the worker dies with the process).
   */
  flushOnSignal?: boolean
}

// pino's names for the three shapes of the options.
export type TransportSingleOptions<TargetOptions = object> = TransportOptions<TargetOptions> & { target: string }
export type TransportMultiOptions<TargetOptions = object> = TransportOptions<TargetOptions> & {
  targets: ReadonlyArray<TransportTargetOptions<TargetOptions> | TransportPipelineEntry<TargetOptions>>
}
export type TransportPipelineOptions<TargetOptions = object> = TransportOptions<TargetOptions> & {
  pipeline: ReadonlyArray<TransportTargetOptions<TargetOptions>>
  level?: string | number
}

// A bundle has no dist/logx/ beside it: a bundler recipe (logx/esbuild) emits the worker and
// names it `logx-worker` in globalThis.__bundlerPathsOverrides.
function workerFile(): string {
  return bundlerOverride('logx-worker') ?? join(__dirname, 'transport-worker.js')
}

const bundleHint =
  ': if this app is bundled, its transport files must be emitted beside the bundle (see "Bundling" in logx\'s README)'

/** The stream returned by `transport()`: a ThreadStream whose 'error' events are LogxErrors. */
export interface TransportStream extends ThreadStream {
  [transportUsesMultistreamSym]?: true
  readonly worker: import('node:worker_threads').Worker & { exited?: boolean }
  ref: () => void
  unref: () => void
  readonly ready: boolean
  readonly closed: boolean
  readonly destroyed: boolean
  readonly writableNeedDrain: boolean
  /** What the user asked for, for error messages. */
  readonly description: string
  /** Whether a logger has sent its config message ({ code: 'PINO_CONFIG' }) to the worker. */
  configSent: boolean
  /** Appended to error messages: set when the worker's own file is missing (a bundle without it). */
  hint: string
}

type TransportStreamClass = new (
  opts: ConstructorParameters<typeof ThreadStream>[0],
  description: string,
) => TransportStream

// thread-stream is loaded by the first transport, not with the logger: most loggers never start a
// worker, and the module costs about 2.5 MB of RSS.
let transportStreamClass: TransportStreamClass | undefined

function defineTransportStream(): TransportStreamClass {
  const Base = require('thread-stream') as typeof ThreadStream
  return class TransportStream extends Base {
    [transportUsesMultistreamSym]?: true
    declare readonly worker: import('node:worker_threads').Worker & { exited?: boolean }
    declare ref: () => void
    declare unref: () => void
    declare readonly ready: boolean
    declare readonly closed: boolean
    declare readonly destroyed: boolean
    declare readonly writableNeedDrain: boolean
    readonly description: string
    configSent = false
    hint = ''

    constructor(opts: ConstructorParameters<typeof ThreadStream>[0], description: string) {
      super(opts)
      this.description = description
    }

    /** Ends the worker after it has written everything; keeps the process alive until it has closed. */
    override end(): void {
      // The worker is unreferenced once ready; without this, `end()` followed by waiting for 'close'
      // would let the event loop run dry and the process exit before the targets closed.
      if (!this.destroyed) this.ref()
      super.end()
    }

    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'message' && (args[0] as { code?: unknown } | null)?.code === 'PINO_CONFIG') this.configSent = true
      if (event === 'error' && !(args[0] instanceof LogxError)) {
        const cause = args[0] as Error | undefined
        args[0] = new LogxError(
          LogxErrorCodes.TRANSPORT_FAILED,
          `transport ${this.description} failed: ${cause?.message ?? String(cause)}${this.hint}`,
          undefined,
          { cause },
        )
      }
      return super.emit(event, ...args)
    }
  }
}

function invalid(message: string, path: string): LogxError {
  return new LogxError(LogxErrorCodes.INVALID_TRANSPORT, `transport: ${message}`, path)
}

function checkCloneable(options: unknown, path: string, name: string): void {
  try {
    structuredClone(options)
  } catch (err) {
    throw new LogxError(
      LogxErrorCodes.INVALID_TRANSPORT,
      `transport: ${path} of "${name}" must be serializable by the structured clone algorithm: ` +
        (err as Error).message,
      path,
      { cause: err },
    )
  }
}

function toLevel(level: unknown, levels: Readonly<Record<string, number>>, path: string): number | undefined {
  if (level === undefined || level === null) return undefined
  if (typeof level === 'number' && !Number.isNaN(level)) return level
  if (typeof level === 'string' && Object.hasOwn(levels, level)) return levels[level]
  throw invalid(`unknown level ${JSON.stringify(level)} (known: ${Object.keys(levels).join(', ')})`, path)
}

function toStep(entry: unknown, callers: readonly string[], path: string): WorkerStep {
  if (entry === null || typeof entry !== 'object') throw invalid(`${path} must be an object with a target`, path)
  const { target, options } = entry as TransportTargetOptions
  const file = resolveTarget(target, callers, `${path}.target`)
  const stepOptions = options === undefined ? {} : options
  checkCloneable(stepOptions, `${path}.options`, target)
  return { file, name: target, options: stepOptions }
}

function toPipeline(pipeline: unknown, callers: readonly string[], path: string): WorkerStep[] {
  if (!Array.isArray(pipeline) || pipeline.length === 0) throw invalid(`${path} must be a non-empty array`, path)
  return pipeline.map((entry, index) => toStep(entry, callers, `${path}[${index}]`))
}

// pino's message where pino throws (target with targets); where pino silently drops one of the two
// (target or targets with pipeline) or fails later (none at all), a message in the same form.
function checkCombination(options: TransportOptions<unknown>): void {
  const given = (['target', 'targets', 'pipeline'] as const).filter((key) => options[key] !== undefined)
  if (given.length === 0) {
    throw new LogxError(
      LogxErrorCodes.INVALID_TRANSPORT,
      'one of target, targets or pipeline must be specified',
      'target',
    )
  }
  if (given.length > 1) {
    throw new LogxError(
      LogxErrorCodes.INVALID_TRANSPORT,
      `only one of ${given[0]} or ${given[1]} can be specified`,
      given[0] === 'target' ? 'target' : given[1],
    )
  }
}

function toRoutes(
  options: TransportOptions<unknown>,
  callers: readonly string[],
  levels: Readonly<Record<string, number>>,
): WorkerRoute[] {
  checkCombination(options)
  if (options.target !== undefined) {
    return [{ steps: [toStep({ target: options.target, options: options.options }, callers, 'transport')] }]
  }
  if (options.pipeline !== undefined) {
    return [{ steps: toPipeline(options.pipeline, callers, 'pipeline') }]
  }
  // An empty list is accepted, as pino does: the lines go nowhere (an app may filter its targets
  // by environment down to none).
  if (!Array.isArray(options.targets)) throw invalid('targets must be an array', 'targets')
  // Array.isArray narrows a readonly array to any[]: the entries are the declared ones.
  return (options.targets as TransportOptions<unknown>['targets'] & object).map((entry, index) => {
    const path = `targets[${index}]`
    const route: WorkerRoute =
      entry !== null && typeof entry === 'object' && 'pipeline' in entry
        ? { steps: toPipeline(entry.pipeline, callers, `${path}.pipeline`) }
        : { steps: [toStep(entry, callers, path)] }
    const level = toLevel((entry as { level?: unknown } | null)?.level, levels, `${path}.level`)
    if (level !== undefined) route.level = level
    return route
  })
}

function hasPreloadFlags(execArgv: readonly string[]): boolean {
  return execArgv.some((arg) => /^(--require|-r|--import)(=|$)/.test(arg))
}

// A transport created while a preload (`node -r x` / `--import x`) runs would hand that flag to its
// worker, whose preload could create another transport, and so on (pino met this and strips the
// flags; we could not reproduce it on Node 20 but take the same precaution). So during the preload
// phase (no main module yet) the worker gets no execArgv unless the caller chose one.
function workerExecArgv(worker: TransportWorkerOptions): string[] | undefined {
  if (worker.execArgv !== undefined) return worker.execArgv
  return require.main === undefined && hasPreloadFlags(process.execArgv) ? [] : undefined
}

function levelLabels(levels: Readonly<Record<string, number>>): Record<number, string> {
  const labels: Record<number, string> = {}
  for (const [label, value] of Object.entries(levels)) if (Number.isFinite(value)) labels[value] = label
  return labels
}

function describe(options: TransportOptions<unknown>): string {
  if (options.target !== undefined) return `"${options.target}"`
  const names = (options.targets ?? options.pipeline ?? []).flatMap((entry) =>
    'pipeline' in entry ? entry.pipeline.map((step) => step.target) : [entry.target],
  )
  return `[${names.map((name) => `"${name}"`).join(', ')}]`
}

// At 'beforeExit' the loop may still run, so a flush is enough and the app may go on; at 'exit'
// nothing async can happen any more: end() blocks until every target has closed.
function onProcessExit(stream: TransportStream, event: ExitEvent): void {
  if (stream.closed || stream.destroyed) return
  if (event === 'beforeExit') {
    stream.flushSync()
    return
  }
  stream.flushSync()
  stream.end()
}

// thread-stream does not listen for the Worker's own 'error' (its entry file failed to load, as in
// a bundle without its worker files), which would crash the app: report it on the stream instead;
// the worker's exit then ends the stream as for any failed target. The stream is held weakly, and
// from this function's scope rather than transport()'s (whose closures hold it): the running worker
// must not keep an unused stream from being collected, which is what ends the worker.
function forwardWorkerErrors(stream: TransportStream): void {
  const weakStream = new WeakRef(stream)
  stream.worker.on('error', (err: Error) => {
    const alive = weakStream.deref()
    if (alive !== undefined && !alive.destroyed) alive.emit('error', err)
  })
}

/** Starts the targets in a worker thread and returns the stream that feeds them. */
export function transport<TargetOptions = object>(options: TransportOptions<TargetOptions>): TransportStream {
  if (options === null || typeof options !== 'object') throw invalid('options must be an object', 'transport')
  const callers =
    options.caller === undefined
      ? callerFiles()
      : typeof options.caller === 'string'
        ? [options.caller]
        : [...options.caller]
  const levels: Record<string, number> = { ...defaultStreamLevels, ...options.levels }
  const routes = toRoutes(options, callers, levels)

  const { autoEnd, ...workerOptions } = options.worker ?? {}
  const execArgv = workerExecArgv(workerOptions)
  if (execArgv !== undefined) workerOptions.execArgv = execArgv
  const workerData: TransportWorkerData & { pinoWillSendConfig: true } = {
    logx: { routes, levels, dedupe: options.dedupe === true },
    // Targets built with pino-abstract-transport's `expectPinoConfig` wait for the logger's config
    // message ({ code: 'PINO_CONFIG' }), which the logger emits on its stream.
    pinoWillSendConfig: true,
  }
  const description = describe(options)
  const filename = workerFile()
  transportStreamClass ??= defineTransportStream()
  const stream = new transportStreamClass(
    {
      filename,
      workerData,
      workerOpts: { ...workerOptions, name: workerOptions.name ?? `logx.transport ${description}` },
      sync: options.sync === true,
    },
    description,
  )
  if (!existsSync(filename)) stream.hint = bundleHint
  forwardWorkerErrors(stream)
  if (routes.length > 1 || routes.some((route) => route.level !== undefined)) {
    stream[transportUsesMultistreamSym] = true
  }

  // A logger sends its config in the same tick it is given this stream. When none does (the stream
  // is used on its own), targets that wait for a config would wait forever and keep the process
  // alive: send the defaults instead. Later config messages are ignored by those targets.
  setImmediate(() => {
    if (stream.configSent || stream.destroyed) return
    const { silent: _silent, ...values } = levels
    stream.emit('message', {
      code: 'PINO_CONFIG',
      config: { levels: { values, labels: levelLabels(values) }, messageKey: 'msg', errorKey: 'err' },
    })
  })

  // Until the worker is ready it stays referenced, so an app whose loop ends at once still waits
  // for its targets to start. Afterwards it must not keep the app alive: exit handlers flush it.
  stream.once('ready', () => stream.unref())
  if (autoEnd !== false) {
    registerExitHandler(stream, onProcessExit, { signals: options.flushOnSignal !== false })
    stream.once('close', () => unregisterExitHandler(stream))
  }
  return stream
}
