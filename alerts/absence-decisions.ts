// What the absence watch (absence.ts) does with one watched key: when a line of it arrives, at a
// tick, past the bound, and at a restore. Pure: the watch holds the keys and applies the decision;
// time comes in as `now`.
//
// 1. A line of a watched key sets its last line to now. The key moves to the end of its map (the
//    maps are in recency order) only when it took its place REORDER_MS ago or more: moving it on
//    every line (a delete and a set) would cost more than the rest of a line's watch, and recency
//    to within a second is all the bound needs.
// 2. A line of a key whose absence incident is open ends the incident (the watch's rule 4).
// 3. At a tick the keys are walked in the order they took their places. A key placed less than
//    `for` ago ends the walk (none after it can be due). A key already open, or whose last line is
//    less than `for` old, is passed. Any other is due, and counts as open from now.
// 4. Past `maxKeys` the restored keys no line has named since go first (seen least recently of
//    all), then the live ones, least recently placed first.
// 5. A saved key is restored when its rule is still an absence rule grouping by the same paths, its
//    key is a string, its time a finite number, and the rule does not watch that key already. Its
//    last line is max(saved, resumedAt): the time the agent was down never counts as silence.

/** A watched key as the decisions read it. */
export interface KeyClock {
  /** When its last line arrived (epoch ms). */
  readonly lastSeen: number
  /** When it took its place in its map's order: lastSeen lies within REORDER_MS after it. */
  readonly placedAt: number
  /** Whether its absence incident is open, as far as the watch knows. */
  readonly open: boolean
}

export const REORDER_MS = 1000

/** Rule 1: whether a line at `now` moves the key to the end of its map. */
export function movesOnLine(key: KeyClock, now: number): boolean {
  return now - key.placedAt >= REORDER_MS
}

/** Rule 2: whether a line of the key ends its absence incident. */
export function lineEnds(key: KeyClock): boolean {
  return key.open
}

export type TickStep = 'stop' | 'pass' | 'due'

/** Rule 3: what a tick at `now` does with the key, in the walk of its map. */
export function tickStep(key: KeyClock, forMs: number, now: number): TickStep {
  if (now - key.placedAt < forMs) return 'stop'
  if (key.open || now - key.lastSeen < forMs) return 'pass'
  return 'due'
}

/** Rule 4: which map loses its oldest key, or undefined while both hold no more than `max`. */
export function evictFrom(live: number, restored: number, max: number): 'restored' | 'live' | undefined {
  if (live + restored <= max) return undefined
  return restored > 0 ? 'restored' : 'live'
}

/** A saved key as it is read back: nothing in it is trusted. */
export interface SavedKey {
  readonly key: unknown
  readonly lastSeen: unknown
  readonly labels: unknown
}

/** Rule 5: the saved key's last line once restored, or undefined when it is not restored. */
export function restoredLastSeen(
  saved: SavedKey,
  paths: readonly string[],
  watchedAlready: (key: string) => boolean,
  resumedAt: number,
): number | undefined {
  const { key, lastSeen } = saved
  if (typeof key !== 'string' || typeof lastSeen !== 'number' || !Number.isFinite(lastSeen)) return undefined
  if (!sameGrouping(paths, saved.labels) || watchedAlready(key)) return undefined
  return Math.max(lastSeen, resumedAt)
}

/** Whether `labels` name exactly the rule's group_by paths. */
export function sameGrouping(paths: readonly string[], labels: unknown): labels is Record<string, unknown> {
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) return false
  const keys = Object.keys(labels)
  return keys.length === paths.length && paths.every((path) => Object.hasOwn(labels, path))
}
