// Regular expressions in YAML are written `/pattern/flags`. Flags that make RegExp#test stateful
// (g, y) or change its syntax (v, d) are refused: a matcher must give the same answer every time.

export const ALLOWED_FLAGS = 'imsu'

// Only JavaScript flag letters count as flags, so a value like "/api/users" stays a plain string.
const LITERAL = /^\/(.*)\/([dgimsuvy]*)$/s

export type RegexParse = { ok: true; regex: RegExp } | { ok: false; message: string }

/** Whether a string is written as a `/pattern/flags` literal. */
export function isRegexLiteral(text: string): boolean {
  return text.length >= 2 && LITERAL.test(text)
}

export function compileRegex(source: string, flags = ''): RegexParse {
  for (const flag of flags) {
    if (!ALLOWED_FLAGS.includes(flag))
      return { ok: false, message: `unsupported regex flag "${flag}" (allowed: ${ALLOWED_FLAGS.split('').join(', ')})` }
  }
  if (new Set(flags).size !== flags.length) return { ok: false, message: `repeated regex flag in "${flags}"` }
  try {
    return { ok: true, regex: new RegExp(source, flags) }
  } catch (err) {
    return {
      ok: false,
      message: `invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
    }
  }
}

/** `/Timeout|ECONNREFUSED/i` as a literal, or a bare pattern when `bare` allows it. */
export function parseRegex(text: string, bare: boolean): RegexParse {
  const m = LITERAL.exec(text)
  if (m !== null && text.length >= 2) return compileRegex(m[1] as string, m[2] as string)
  if (!bare) return { ok: false, message: 'expected a /pattern/flags regular expression' }
  return compileRegex(text)
}
