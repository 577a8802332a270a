// What a command may touch: two output streams and a signal that asks it to stop.

export interface CliIo {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  /** Aborted on SIGINT/SIGTERM (or by a test); long-running commands stop cleanly then. */
  signal: AbortSignal
  /** Called once a long-running command serves; under pm2 (wait_ready) this sends 'ready'. */
  ready?: () => void
}

/** Resolves when the signal aborts (immediately if it already has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
