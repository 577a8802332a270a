// The agent's redact paths: split into segments for its own censoring, and refused where the logger
// (pino's grammar, through @pinojs/redact) would refuse them, so one `redact` list works everywhere.
import { describe, expect, it } from 'vitest'
import { parseRedactPath, RedactPathError } from '../../../../agent/config/values/redact-path'
import { checkRedactPath } from '../../../../agent/config/values/value-checks'

describe('redact paths', () => {
  it('splits dots, quoted brackets, indices and wildcards', () => {
    expect(parseRedactPath('req.headers["x-api-key"]')).toEqual(['req', 'headers', 'x-api-key'])
    expect(parseRedactPath('cards[*].number')).toEqual(['cards', '*', 'number'])
    expect(parseRedactPath('*.password')).toEqual(['*', 'password'])
    expect(parseRedactPath('list[0]')).toEqual(['list', '0'])
  })

  it('says what is wrong and at which column', () => {
    expect(() => parseRedactPath('a..b')).toThrow(RedactPathError)
    expect(checkRedactPath('a..b')).toBe('invalid redact path "a..b" at column 3: empty segment')
    expect(checkRedactPath('a[b]')).toMatch(/at column 3: bracket keys must be quoted strings, numbers or \*/)
    expect(checkRedactPath('user name')).toMatch(/use brackets and quotes/)
    expect(checkRedactPath('user.password')).toBeUndefined()
  })
})
