// `ratio`: whether the share of a source's lines that the rule selects is too high. Pure; the counts are
// kind-rules-window.ts's (all lines: the engine's countLines, which the readers call for every line). The
// rules, in order:
// 1. fewer than `minLines` lines of the source within the window: too few to say, no page;
// 2. more matching lines than lines counted (a reader that does not count) is not a ratio: no page;
// 3. a page when the share is above `above` (a fraction: 5% is 0.05).

export interface RatioInput {
  matching: number
  total: number
  above: number
  minLines: number
}

export function ratioExceeded(input: RatioInput): boolean {
  if (input.total < input.minLines) return false
  if (input.matching > input.total) return false
  return input.matching / input.total > input.above
}
