// Entry of the transport worker thread (loaded by thread-stream, compiled to
// dist/logx/transport-worker.js). It starts every target, chains pipelines, and returns the one
// stream thread-stream writes to: the target itself when there is a single unfiltered route, else
// a line router that applies the per-target levels.

import { workerData } from 'node:worker_threads'
import { LogxError, LogxErrorCodes } from './errors.js'
import { LineRouter, type RouteStream } from './line-router.js'
import { loadTargetFactory } from './load-target.js'
import { createPipeline } from './transport-pipeline.js'

/** One target to start: `file` is resolved in the main thread, `name` is what the user wrote. */
export interface WorkerStep {
  file: string
  name: string
  options: unknown
}

/** A target or a pipeline, with the minimum level it receives when routing applies. */
export interface WorkerRoute {
  steps: WorkerStep[]
  level?: number
}

export interface TransportWorkerData {
  logx: {
    routes: WorkerRoute[]
    levels?: Record<string, number>
    dedupe: boolean
  }
}

type TargetStream = RouteStream['stream'] & NodeJS.EventEmitter

function isStream(value: unknown): value is TargetStream {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { write?: unknown }).write === 'function' &&
    typeof (value as { on?: unknown }).on === 'function'
  )
}

function isReadable(value: TargetStream): boolean {
  // Writables inherit a legacy pipe(); only readable sides have read().
  return (
    typeof (value as { read?: unknown }).read === 'function' && typeof (value as { pipe?: unknown }).pipe === 'function'
  )
}

async function startStep(step: WorkerStep): Promise<TargetStream> {
  const factory = await loadTargetFactory(step.file, step.name)
  const stream = await factory(step.options)
  if (!isStream(stream)) {
    throw new LogxError(
      LogxErrorCodes.INVALID_TRANSPORT,
      `transport target "${step.name}" must resolve to a stream (an object with write() and on()), ` +
        `got ${stream === null ? 'null' : typeof stream}`,
    )
  }
  return stream
}

async function startRoute(route: WorkerRoute, index: number): Promise<RouteStream> {
  const streams = await Promise.all(route.steps.map(startStep))
  if (streams.length === 1) return { stream: streams[0] as TargetStream, level: route.level }
  streams.slice(0, -1).forEach((stream, step) => {
    if (!isReadable(stream)) {
      const name = route.steps[step]?.name ?? '?'
      throw new LogxError(
        LogxErrorCodes.INVALID_TRANSPORT,
        `pipeline step ${step} ("${name}") must be a transform stream: only the last step may be a plain writable`,
        `pipeline[${index}][${step}]`,
      )
    }
  })
  return {
    stream: createPipeline(streams as unknown as NodeJS.ReadWriteStream[]) as unknown as TargetStream,
    level: route.level,
  }
}

// When a target throws outside any stream callback, thread-stream's worker reports the error and
// exits, but leaves the shared read index where it was: a main thread blocked in flushSync() (fatal,
// process exit) would wait its full 10 s. Marking the state failed, as thread-stream itself does for
// a destination 'error', makes that wait end at once with an error.
function failFastOnCrash(): void {
  const stateBuf = (workerData as { stateBuf?: unknown } | null)?.stateBuf
  if (!(stateBuf instanceof SharedArrayBuffer)) return
  // The layout belongs to thread-stream (pinned to an exact version in package.json).
  const { READ_INDEX, WRITE_INDEX } = require('thread-stream/lib/indexes.js') as {
    READ_INDEX: number
    WRITE_INDEX: number
  }
  const state = new Int32Array(stateBuf)
  // First in line: thread-stream's own 'exit' listener calls process.exit() again, which skips
  // every listener after it.
  process.prependOnceListener('exit', (code) => {
    if (code === 0) return
    Atomics.store(state, WRITE_INDEX, -2)
    Atomics.notify(state, WRITE_INDEX)
    Atomics.store(state, READ_INDEX, -2)
    Atomics.notify(state, READ_INDEX)
  })
}

export default async function startTransportWorker(data: TransportWorkerData): Promise<NodeJS.EventEmitter> {
  failFastOnCrash()
  const { routes, levels, dedupe } = data.logx
  const started = await Promise.all(routes.map(startRoute))
  const only = started[0]
  if (started.length === 1 && only !== undefined && only.level === undefined) return only.stream as TargetStream
  return new LineRouter(started, levels, dedupe)
}
