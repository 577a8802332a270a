// Whether the fleet's Redis link is up, and what a failure or a connect changes. Pure: the link
// (redis-connection.ts) feeds it what the client reports and applies the step; no clock (`at` is
// handed in). A degraded episode is one stretch of degraded between two ups; the start's
// 'not connected yet' is degraded but not an episode until something fails.
// Going down (nextOnDown):
// 1. the first failure after an up (or at start) opens an episode, counted once, even when the
//    status already says degraded;
// 2. the same reason while degraded changes nothing;
// 3. another reason while degraded replaces the reason and keeps `since`, without a report
//    (status() shows it; listeners hear of transitions only);
// 4. a failure while up turns degraded since `at`, reported.
// Coming up (nextOnUp):
// 5. up while up changes nothing;
// 6. up from degraded closes the episode, is reported, and counts a reconnect unless it is the
//    first connect of the link.
// The reconnect strategy (onConnectFailure):
// 7. a refused user or password while starting is fatal: the start rejects, no retry;
// 8. any other failure is a degraded status and a retry after the backoff; while starting it also
//    ends the start (degraded, still trying).
import type { ClusterStatus } from './types'

export interface LinkState {
  readonly status: ClusterStatus
  readonly everUp: boolean
  /** A degraded episode counted and not over yet. */
  readonly episodeOpen: boolean
}

export interface LinkStep {
  readonly state: LinkState
  /** The status changed between up and degraded: listeners hear of it. */
  readonly report: boolean
  /** A new degraded episode begins (counters.degradedEpisodes). */
  readonly episode: boolean
  /** A reconnect: up again after having been up (counters.reconnects). */
  readonly reconnect: boolean
}

export type ConnectFailureAnswer =
  { readonly kind: 'fatal' } | { readonly kind: 'retry'; readonly delayMs: number; readonly endStart: boolean }

export function initialLinkState(at: number): LinkState {
  return { status: { status: 'degraded', reason: 'not connected yet', since: at }, everUp: false, episodeOpen: false }
}

const unchanged = (state: LinkState): LinkStep => ({ state, report: false, episode: false, reconnect: false })

export function nextOnDown(state: LinkState, reason: string, at: number): LinkStep {
  const episode = !state.episodeOpen
  const { status } = state
  if (status.status === 'degraded' && status.reason === reason) {
    return { ...unchanged({ ...state, episodeOpen: true }), episode }
  }
  const since = status.status === 'degraded' ? status.since : at
  return {
    state: { ...state, episodeOpen: true, status: { status: 'degraded', reason, since } },
    report: status.status === 'up',
    episode,
    reconnect: false,
  }
}

export function nextOnUp(state: LinkState, at: number): LinkStep {
  if (state.status.status === 'up') return unchanged(state)
  return {
    state: { everUp: true, episodeOpen: false, status: { status: 'up', reason: undefined, since: at } },
    report: true,
    episode: false,
    reconnect: state.everUp,
  }
}

/** Capped exponential backoff of reconnects: 50 ms, doubling, at most 2 s. */
export const reconnectDelayMs = (retries: number): number => Math.min(50 * 2 ** Math.min(retries, 10), 2_000)

export function onConnectFailure(starting: boolean, refused: boolean, retries: number): ConnectFailureAnswer {
  if (starting && refused) return { kind: 'fatal' }
  return { kind: 'retry', delayMs: reconnectDelayMs(retries), endStart: starting }
}
