// When journalctl is started again after it exited, and when the source is reported failing. Pure:
// the caller passes how the run went.
//
// 1. A run that delivered an entry, or lasted STABLE_MS, was healthy: the count of failed runs in
//    a row starts over (a journal rotated away, a journalctl upgraded: one restart, soon).
// 2. Each failed run in a row doubles the wait, from FIRST_DELAY_MS up to MAX_DELAY_MS.
// 3. From FAILING_AFTER failed runs in a row the source is failing (/health says so) until a run
//    is healthy again; it is still restarted, so it recovers on its own once the cause is gone.

export const FIRST_DELAY_MS = 500
export const MAX_DELAY_MS = 30_000
export const STABLE_MS = 10_000
export const FAILING_AFTER = 3

export interface RunOutcome {
  /** Entries the run delivered. */
  entries: number
  /** How long it ran. */
  ranMs: number
}

export interface RestartDecision {
  /** Failed runs in a row, this one included (0 after a healthy run). */
  failures: number
  delayMs: number
  failing: boolean
}

export function isHealthyRun(run: RunOutcome): boolean {
  return run.entries > 0 || run.ranMs >= STABLE_MS
}

export function nextRestart(previousFailures: number, run: RunOutcome): RestartDecision {
  const failures = isHealthyRun(run) ? 0 : previousFailures + 1
  const delayMs = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1))
  return { failures, delayMs, failing: failures >= FAILING_AFTER }
}
