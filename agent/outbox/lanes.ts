// Who may be sent now. Items go out through lanes (the agent's lane is a channel): each lane has a
// bound on its deliveries in flight, and a pause while a server's Retry-After for it runs, so a 429
// on one channel holds that channel only. Bookkeeping only: no clock (`t` is passed in), no I/O.
import type { OutboxItem } from './item'

/** Deliveries in flight per lane when the caller does not say. */
export const DEFAULT_LANE_CONCURRENCY = 4

export interface LaneOptions {
  /** The lane of an item; default: its kind. */
  laneOf?: ((item: OutboxItem) => string) | undefined
  /** Deliveries in flight at once in a lane; default DEFAULT_LANE_CONCURRENCY. Read on every use, so it may change. */
  limitOf?: ((lane: string) => number) | undefined
}

export interface LaneStats {
  inFlight: number
  pending: number
  /** Until when (ms since the epoch) a server's Retry-After holds the lane; 0 when it does not. */
  pausedUntil: number
}

/** A lane as a pump sees it: what is in flight and pending in it, its pause and its limit. */
export interface LaneView extends LaneStats {
  limit: number
}

export interface Lanes {
  of(item: OutboxItem): string
  /** An item of the lane is pending (in memory) / is no longer. */
  added(lane: string): void
  removed(lane: string): void
  started(lane: string): void
  ended(lane: string): void
  /** The server asked this lane to wait until `until`; a pause only ever grows. */
  pause(lane: string, until: number): void
  view(lane: string): LaneView
  /** Lanes with items pending that are not in flight, and that may start one at `t`. */
  openCount(t: number): number
  /** The earliest end of a pause, among paused lanes with items pending; Infinity when none. */
  nextResume(t: number): number
  stats(): Record<string, LaneStats>
}

export function createLanes(options: LaneOptions = {}): Lanes {
  const laneOf = options.laneOf ?? ((item: OutboxItem) => item.kind)
  const limitOf = (lane: string): number => {
    const limit = options.limitOf?.(lane)
    return limit !== undefined && Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : DEFAULT_LANE_CONCURRENCY
  }
  // A handful of channels: lanes are never forgotten.
  const lanes = new Map<string, LaneStats>()
  const state = (lane: string): LaneStats => {
    let s = lanes.get(lane)
    if (s === undefined) lanes.set(lane, (s = { inFlight: 0, pending: 0, pausedUntil: 0 }))
    return s
  }
  const open = (lane: string, s: LaneStats, t: number): boolean => s.inFlight < limitOf(lane) && s.pausedUntil <= t
  return {
    of: laneOf,
    added: (lane) => void state(lane).pending++,
    removed: (lane) => void state(lane).pending--,
    started: (lane) => void state(lane).inFlight++,
    ended: (lane) => void state(lane).inFlight--,
    pause(lane, until) {
      const s = state(lane)
      s.pausedUntil = Math.max(s.pausedUntil, until)
    },
    view: (lane) => ({ ...state(lane), limit: limitOf(lane) }),
    openCount(t) {
      let n = 0
      for (const [lane, s] of lanes) if (s.pending > s.inFlight && open(lane, s, t)) n++
      return n
    },
    nextResume(t) {
      let next = Infinity
      for (const s of lanes.values())
        if (s.pending > 0 && s.pausedUntil > t && s.pausedUntil < next) next = s.pausedUntil
      return next
    },
    stats: () => Object.fromEntries([...lanes].map(([lane, s]) => [lane, { ...s }])),
  }
}
