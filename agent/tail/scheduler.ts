// One serial loop owns all state, so rotation handling never races with reading. Watcher events
// and a single interval timer (no timer per file) queue jobs; the loop runs the jobs in order, then
// gives each file marked dirty one turn, and starts over while there is work.

import type { PathEvent } from './discovery'
import { TailErrorCodes } from './errors'
import type { FileGeneration } from './file-generation'
import type { TailContext } from './tail-context'

export interface SchedulerWork {
  onPathEvent(event: PathEvent, path: string): Promise<void>
  tick(): Promise<void>
  takeTurn(file: FileGeneration): Promise<void>
}

export interface Scheduler {
  /** From discovery. Until start(), only 'add' counts: it names a file present at startup. */
  onPathEvent(event: PathEvent, path: string): void
  /** The paths reported before start(). */
  readonly initialPaths: readonly string[]
  /** Runs the loop from now on, with a tick every pollIntervalMs. */
  start(): void
  /** No more ticks; resolves once the loop's current turn is over. */
  stop(): Promise<void>
}

type PathJob = { readonly kind: 'path'; readonly event: PathEvent; readonly path: string }
type Job = PathJob | { readonly kind: 'tick' }

export function createScheduler(ctx: TailContext, work: SchedulerWork): Scheduler {
  const { files } = ctx
  const jobs: Job[] = []
  /** The last job queued for each path, until it runs. */
  const lastPathJob = new Map<string, PathJob>()
  const initialPaths: string[] = []
  let starting = true
  let running: Promise<void> | undefined
  let tickQueued = false
  let timer: NodeJS.Timeout | undefined

  function kick(): void {
    if (running || ctx.closed || starting) return
    running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(runLoop)
      .catch((error: unknown) =>
        ctx.warn(TailErrorCodes.FILE_READ, `tailer loop: ${(error as Error).message}`, undefined, error),
      )
      .finally(() => {
        running = undefined
        if (!ctx.closed && (jobs.length > 0 || files.dirty.size > 0)) kick()
      })
  }

  async function runLoop(): Promise<void> {
    while (!ctx.closed) {
      const job = jobs.shift()
      if (job !== undefined) {
        if (job.kind === 'tick') {
          tickQueued = false
          await work.tick()
        } else {
          if (lastPathJob.get(job.path) === job) lastPathJob.delete(job.path)
          await work.onPathEvent(job.event, job.path)
        }
        continue
      }
      const next = files.dirty.values().next()
      if (next.done === true) return
      files.dirty.delete(next.value)
      await work.takeTurn(next.value)
    }
  }

  return {
    onPathEvent(event, path) {
      if (ctx.closed) return
      if (starting) {
        if (event === 'add') initialPaths.push(path)
        return
      }
      if (event === 'change') {
        // The common case, a write to a file being read, costs no path lookup: just read it.
        const known = files.byPath.get(path)
        if (known !== undefined) {
          files.markDirty(known)
          kick()
          return
        }
      }
      // A path job stats the path when it runs, so one queued job stands for every later event of
      // that path but an unlink. Without this, a file written at full speed before it is adopted
      // queues a job per write, and reading waits until they have all run (minutes, under load).
      const queued = lastPathJob.get(path)
      if (event !== 'unlink' && queued !== undefined && queued.event !== 'unlink') return
      const job: PathJob = { kind: 'path', event: event === 'rename' ? 'change' : event, path }
      lastPathJob.set(path, job)
      jobs.push(job)
      kick()
    },
    initialPaths,
    start() {
      starting = false
      kick()
      timer = setInterval(() => {
        if (tickQueued || ctx.closed) return
        tickQueued = true
        jobs.push({ kind: 'tick' })
        kick()
      }, ctx.config.pollIntervalMs)
      timer.unref()
    },
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
