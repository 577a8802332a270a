// Text printed to a terminal shows control and bidi characters escaped, one rule of
// agent/cli/terminal-text.ts per test.
import { describe, expect, it } from 'vitest'
import { terminalLines, terminalText } from '../../../agent/cli/terminal-text'

describe('terminalText', () => {
  it('rule 1: every C0 control, DEL and every C1 control is escaped', () => {
    for (let code = 0; code <= 0x1f; code++) expect(terminalText(String.fromCharCode(code))).toMatch(/^\\/)
    expect(terminalText('\u007f')).toBe('\\x7f')
    for (let code = 0x80; code <= 0x9f; code++)
      expect(terminalText(String.fromCharCode(code))).toBe(`\\x${code.toString(16)}`)
  })

  it('rule 2: tab, LF and CR by name, the others as \\xHH', () => {
    expect(terminalText('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd')
    expect(terminalText('\u001b]0;pwned\u0007')).toBe('\\x1b]0;pwned\\x07')
    expect(terminalText('\u001b[2J')).toBe('\\x1b[2J')
    expect(terminalText('\u0000')).toBe('\\x00')
    expect(terminalText('\u009b31m')).toBe('\\x9b31m')
  })

  it('rule 3: bidi embeddings, overrides and isolates as \\uHHHH', () => {
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069])
      expect(terminalText(`a${String.fromCharCode(code)}b`)).toBe(`a\\u${code.toString(16)}b`)
    // Neighbours of the ranges are text.
    expect(terminalText('\u2029\u206a\u200f')).toBe('\u2029\u206a\u200f')
  })

  it('rule 4: everything else as it is, a backslash too', () => {
    expect(terminalText('C:\\logs é 日本 😀 ~')).toBe('C:\\logs é 日本 😀 ~')
  })

  it('rule 5: text without any is the same string', () => {
    const text = 'query failed: connection refused'
    expect(terminalText(text)).toBe(text)
  })

  it('terminalLines escapes each line and ends the text with one newline', () => {
    expect(terminalLines(['a\nb', 'c\u001b'])).toBe('a\\nb\nc\\x1b\n')
  })
})
