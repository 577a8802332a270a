// Rules on kinds, normalized (agent/config makes them from a rule's `kind`, `min_count`, `within`, `quiet`,
// `deploys`, `spike` and `ratio` keys): one per rule, a union on `type`. A leaf: rule.ts imports it.
import type { FieldMatch } from '../matcher'

/** Lines that mark a deploy (`deploys: { source, match }`): their time is the source's last deploy. */
export interface DeployWatch {
  /** Source names; undefined: any source. */
  sources: string[] | undefined
  match: FieldMatch[]
}

export type KindRuleConfig =
  /** Pages a kind the first time it is seen, or once seen `minCount` times within `withinMs`. */
  | { type: 'new'; minCount: number; withinMs: number | undefined }
  /** Pages a kind back after its incident resolved (after the next deploy, with `deploys`) or `quietMs` without it. */
  | { type: 'regressed'; quietMs: number; deploys: DeployWatch | undefined }
  /** Pages when the last `windowMs` hold `factor` times the rate of the `baselineMs` before it, and `min` lines. */
  | { type: 'spike'; factor: number; baselineMs: number; windowMs: number; min: number }
  /** Pages when more than `above` (a fraction) of the source's lines within `withinMs` match (`minLines` at least). */
  | { type: 'ratio'; above: number; withinMs: number; minLines: number }

export const DEFAULT_QUIET_MS = 7 * 24 * 3_600_000
export const DEFAULT_SPIKE_WINDOW_MS = 60_000
