// `spike`: whether a kind's rate (with `group_by`, a group's of the rule's selection) is a spike. Pure;
// the counts are kind-rules-window.ts's. The rules, in order:
// 1. fewer than `min` lines in the last `windowMs` (this one included) is never a spike;
// 2. while the rule has watched for less than `windowMs + baselineMs`, there is no baseline yet: no
//    spike (a start would see every busy kind as one);
// 3. a spike is at least `factor` times the lines the baseline's rate gives a window (the `baselineMs`
//    before the window, scaled to `windowMs`); a kind absent from the baseline spikes at `min`.

export interface SpikeInput {
  /** Lines in the last windowMs, this one included. */
  current: number
  /** Lines in the baselineMs before the window. */
  baseline: number
  /** How long the rule has watched. */
  watchedMs: number
  factor: number
  min: number
  windowMs: number
  baselineMs: number
}

export function expectedInWindow(input: SpikeInput): number {
  return (input.baseline * input.windowMs) / input.baselineMs
}

export function isSpike(input: SpikeInput): boolean {
  if (input.current < input.min) return false
  if (input.watchedMs < input.windowMs + input.baselineMs) return false
  return input.current >= input.factor * expectedInWindow(input)
}
