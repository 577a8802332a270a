// One test per rule of agent/config/values/user-pattern.ts, and what follows from them for the
// places that take a user's pattern (field matchers, the `/pattern/flags` literal).
import { describe, expect, it } from 'vitest'
import { toFieldMatches } from '../../../../agent/config/values/field-match'
import { parseRegex } from '../../../../agent/config/values/regex-literal'
import { compileUserPattern, isSafePattern } from '../../../../agent/config/values/user-pattern'

describe('compileUserPattern', () => {
  it('rule 1: only the flags i, m, s, u, each once', () => {
    expect(compileUserPattern('timeout', 'ims')).toEqual({ ok: true, regex: /timeout/ims })
    expect(compileUserPattern('timeout', 'g')).toMatchObject({ ok: false, message: expect.stringContaining('"g"') })
    expect(compileUserPattern('timeout', 'ii')).toMatchObject({
      ok: false,
      message: expect.stringContaining('repeated'),
    })
  })

  it('rule 2: the pattern compiles', () => {
    expect(compileUserPattern('(unclosed')).toEqual({
      ok: false,
      message: 'invalid regular expression: /(unclosed/: Unterminated group',
    })
  })

  it('rule 3: a repetition inside a repeated group, or more than 25 repetitions, is refused', () => {
    for (const source of ['^(a+)+$', '(\\w+\\s?)*$', '(x+x+)+y', 'a+'.repeat(26)]) {
      const parsed = compileUserPattern(source)
      expect(parsed.ok, source).toBe(false)
      if (!parsed.ok) expect(parsed.message).toContain('exponential time')
    }
    for (const source of ['Timeout|ECONNREFUSED', '^\\d{4}-\\d{2}-\\d{2}', '(?<code>E\\d+)', 'a(?!b)', '\\p{L}+'])
      expect(compileUserPattern(source, 'u').ok, source).toBe(true)
  })

  it('reads a lookbehind as a group for rule 3, an escaped "(?<=" as text', () => {
    expect(isSafePattern('(?<=user=)\\w+')).toBe(true)
    expect(isSafePattern('(?<!a)(b+)+')).toBe(false)
    expect(compileUserPattern('\\(?<=x').ok).toBe(true)
  })
})

describe('what takes user patterns', () => {
  it('a /pattern/flags literal goes through the same rules', () => {
    expect(parseRegex('/^(a+)+$/', false)).toMatchObject({ ok: false, message: expect.stringContaining('(a+)+') })
  })

  it('a refused pattern that reaches a field matcher matches nothing (it does not widen the rest)', () => {
    const [match] = toFieldMatches({ msg: '/^(a+)+$/' })
    expect(match?.kind).toBe('regex')
    if (match?.kind === 'regex') expect(match.regex.test('a')).toBe(false)
  })
})
