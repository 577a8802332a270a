// The one way a test waits for something it cannot await: ask again until the answer is there.
// Tests wait on events where there are events; this is for state seen from outside (a file, a
// sandbox's records, a child's output).

export interface PollOptions {
  /** How long to keep asking before failing. Default 20 s: long enough for a loaded machine. */
  timeoutMs?: number
  /** Pause between two probes. Default 20 ms. */
  intervalMs?: number
}

/** What a probe answers: a value once the awaited state is there, `undefined` or `false` until then. */
export type Probe<T> = () => T | undefined | false | Promise<T | undefined | false>

/**
 * Calls `probe` until it returns something other than `undefined` or `false` and resolves with that;
 * rejects with `timed out waiting for <what>` once `timeoutMs` has passed. A probe that throws fails
 * at once.
 */
export async function pollUntil<T>(what: string, probe: Probe<T>, options: PollOptions = {}): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 20 } = options
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
