// A poll that runs now and then every interval, never two at once: a setTimeout chain, unref'd so it
// holds no process open, each next poll after the longer of the interval and the wait the last one
// was asked for. stop() waits for the poll in flight. Nothing is thrown out of the timer.

/** Shortest interval: a zero or broken one would poll a paid API in a tight loop. */
export const MIN_INTERVAL_MS = 100

/** The interval a poller runs at: at least MIN_INTERVAL_MS, and that for anything not a finite number. */
export function pollInterval(intervalMs: number): number {
  return Number.isFinite(intervalMs) ? Math.max(MIN_INTERVAL_MS, intervalMs) : MIN_INTERVAL_MS
}

export interface PollLoop<T> {
  start(): void
  /** One run after any in flight; undefined once stopped. */
  runNow(): Promise<T | undefined>
  stop(): Promise<void>
}

/** `run` never rejects; `waitOf` says how long its result asks the next run to wait at least. */
export function createPollLoop<T>(
  intervalMs: number,
  run: () => Promise<T>,
  waitOf: (result: T) => number,
): PollLoop<T> {
  let chain: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let started = false
  let stopped = false

  function exclusive(): Promise<T> {
    const next = chain.then(run)
    chain = next
    return next
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      timer = undefined
      void exclusive().then((result) => {
        if (!stopped) schedule(Math.max(intervalMs, waitOf(result)))
      })
    }, delayMs)
    timer.unref()
  }

  return {
    start() {
      if (started || stopped) return
      started = true
      schedule(0)
    },
    runNow() {
      // Not async: the caller's continuation must run before a stop() that waits for this run.
      return stopped ? Promise.resolve(undefined) : exclusive()
    },
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      await chain
    },
  }
}
