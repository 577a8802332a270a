// Field matchers (rules' `match`, silences' `matchers`): written dot path -> value to compiled form.
import { parseRegex, isRegexLiteral } from './regex-literal'
import type { FieldMatch } from '../types'
import type { MatchValueInput } from '../shape/written-types'

const MATCHES_NOTHING = /(?!)/

export function toFieldMatches(written: Record<string, MatchValueInput> | undefined): FieldMatch[] {
  if (written === undefined) return []
  const out: FieldMatch[] = []
  for (const [path, value] of Object.entries(written)) {
    if (typeof value === 'string' && isRegexLiteral(value)) {
      const parsed = parseRegex(value, false)
      // The checker reported a refused pattern where it was written; one that reaches here anyway (a
      // silence saved by an older agent) matches nothing: dropping it would widen what the rest matches.
      out.push({ kind: 'regex', path, regex: parsed.ok ? parsed.regex : MATCHES_NOTHING })
    } else {
      out.push({ kind: 'equals', path, value })
    }
  }
  return out
}
