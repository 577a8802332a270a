// Field matchers (rules' `match`, silences' `matchers`): written dot path -> value to compiled form.
import { parseRegex, isRegexLiteral } from './regex-literal'
import type { FieldMatch } from '../types'
import type { MatchValueInput } from '../shape/written-types'

export function toFieldMatches(written: Record<string, MatchValueInput> | undefined): FieldMatch[] {
  if (written === undefined) return []
  const out: FieldMatch[] = []
  for (const [path, value] of Object.entries(written)) {
    if (typeof value === 'string' && isRegexLiteral(value)) {
      const parsed = parseRegex(value, false)
      // A pattern that does not compile was reported by the checker and left out there.
      if (parsed.ok) out.push({ kind: 'regex', path, regex: parsed.regex })
    } else {
      out.push({ kind: 'equals', path, value })
    }
  }
  return out
}
