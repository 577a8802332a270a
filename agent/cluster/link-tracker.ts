// The Redis link's status as a small object: it applies link-state.ts's rules to what the client
// reports, tells the listener of transitions, counts episodes and reconnects, and runs the reconnect
// work. After close() nothing changes any more (a late event of a destroyed client is not news).
import { initialLinkState, nextOnDown, nextOnUp, type LinkStep } from './link-state'
import type { ClusterStatus } from './types'

export interface LinkTracker {
  status(): ClusterStatus
  down(reason: string): void
  up(): void
  /** Called on every transition to up (the work kept while Redis was out of reach). */
  onUp(handler: () => void): void
  readonly counters: { degradedEpisodes: number; reconnects: number }
  close(): void
}

function runEach(handlers: readonly (() => void)[]): void {
  for (const handler of handlers) {
    try {
      handler()
    } catch {
      // Reconnect work reports its own failures.
    }
  }
}

export function createLinkTracker(now: () => number, onStatus?: (status: ClusterStatus) => void): LinkTracker {
  let state = initialLinkState(now())
  let closed = false
  const upHandlers: (() => void)[] = []
  const counters = { degradedEpisodes: 0, reconnects: 0 }

  function apply(step: LinkStep): void {
    state = step.state
    if (step.episode) counters.degradedEpisodes++
    if (step.report) {
      try {
        onStatus?.(state.status)
      } catch {
        // A listener's failure is its own.
      }
    }
    if (step.reconnect) counters.reconnects++
    // Every transition to up runs the up work, the first connect after a degraded start included:
    // what was sent, published or seen while Redis was out of reach is written now.
    if (step.report && state.status.status === 'up') runEach(upHandlers)
  }

  return {
    status: () => state.status,
    down(reason) {
      if (!closed) apply(nextOnDown(state, reason, now()))
    },
    up() {
      if (!closed) apply(nextOnUp(state, now()))
    },
    onUp(handler) {
      upHandlers.push(handler)
    },
    counters,
    close() {
      closed = true
    },
  }
}
