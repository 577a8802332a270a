// Regular expressions in YAML are written `/pattern/flags`. Flags that make RegExp#test stateful
// (g, y) or change its syntax (v, d) are refused: a matcher must give the same answer every time.
// Compiling (and refusing what could backtrack without bound) is user-pattern.ts's.

import { compileUserPattern, type RegexParse } from './user-pattern'

// Only JavaScript flag letters count as flags, so a value like "/api/users" stays a plain string.
const LITERAL = /^\/(.*)\/([dgimsuvy]*)$/s

export type { RegexParse } from './user-pattern'

/** Whether a string is written as a `/pattern/flags` literal. */
export function isRegexLiteral(text: string): boolean {
  return text.length >= 2 && LITERAL.test(text)
}

/** `/Timeout|ECONNREFUSED/i` as a literal, or a bare pattern when `bare` allows it. */
export function parseRegex(text: string, bare: boolean): RegexParse {
  const m = LITERAL.exec(text)
  if (m !== null && text.length >= 2) return compileUserPattern(m[1] as string, m[2] as string)
  if (!bare) return { ok: false, message: 'expected a /pattern/flags regular expression' }
  return compileUserPattern(text)
}
