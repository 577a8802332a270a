// A source's `multiline`: a preset name, or an object with exactly one of `preset`, `start` and
// `continue`. The shape has checked each key (an unknown preset with a did-you-mean, a pattern that
// does not compile); what is left is the one rule the shape cannot say: two of the three together.
import type { CheckContext } from '../load/check-context'
import { parseDuration } from '../values/duration'
import { ConfigErrorCodes } from '../errors'
import { parseRegex } from '../values/regex-literal'
import type { MultilineConfig, MultilineMatch, MultilinePreset } from '../types'
import type { MultilineInput } from '../shape/written-types'
import type { Segment } from '../load/yaml-source'

export const MULTILINE_PRESETS: readonly MultilinePreset[] = ['java', 'python', 'go', 'node']
export const DEFAULT_MULTILINE_MAX_LINES = 500
export const DEFAULT_MULTILINE_TIMEOUT_MS = 1000

const RULE_KEYS = ['preset', 'start', 'continue'] as const

/** undefined when not given, or when its problems are reported already. */
export function normalizeMultiline(
  written: MultilinePreset | MultilineInput | undefined,
  path: readonly Segment[],
  ctx: CheckContext,
): MultilineConfig | undefined {
  if (written === undefined) return undefined
  const defaults = { maxLines: DEFAULT_MULTILINE_MAX_LINES, timeoutMs: DEFAULT_MULTILINE_TIMEOUT_MS }
  if (typeof written === 'string') return { match: { kind: 'preset', preset: written }, ...defaults }
  const given = RULE_KEYS.filter((key) => written[key] !== undefined)
  if (given.length > 1) {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...path, given[1] as string],
      `give one of preset, start or continue, not ${given.join(' and ')}: ` +
        'a line either starts an event or continues one',
      'key',
    )
    return undefined
  }
  const match = matchOf(written)
  if (match === undefined) return undefined
  return {
    match,
    maxLines: written.max_lines ?? DEFAULT_MULTILINE_MAX_LINES,
    timeoutMs:
      written.timeout === undefined
        ? DEFAULT_MULTILINE_TIMEOUT_MS
        : (parseDuration(written.timeout) ?? DEFAULT_MULTILINE_TIMEOUT_MS),
  }
}

function matchOf(written: MultilineInput): MultilineMatch | undefined {
  if (written.preset !== undefined) return { kind: 'preset', preset: written.preset }
  // The shape compiled both already: these parses succeed.
  const pattern = (text: string): RegExp | undefined => {
    const parsed = parseRegex(text, true)
    return parsed.ok ? parsed.regex : undefined
  }
  if (written.start !== undefined) {
    const regex = pattern(written.start)
    return regex === undefined ? undefined : { kind: 'start', pattern: regex }
  }
  if (written.continue !== undefined) {
    const regex = pattern(written.continue)
    return regex === undefined ? undefined : { kind: 'continue', pattern: regex }
  }
  return undefined
}
