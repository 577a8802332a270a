// The small parsers the loader is made of: durations, ${VAR} references, /regex/ literals,
// did-you-mean, and line:col positions.
import { describe, expect, it } from 'vitest'
import { didYouMean, editDistance, interpolateEnv, parseDuration, parseRegex } from '../../../agent/config'
import { formatPath } from '../../../agent/config/shape/config-path'
import { readYamlSource } from '../../../agent/config/load/yaml-source'
import { checkHint, fillHint, parseListen } from '../../../agent/config/values/value-checks'

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['30m', 1_800_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1d2h3m4s5ms', 93_784_005],
    ['1.5s', 1500],
    ['0s', 0],
    [0, 0],
    [250, 250],
    // What the transport targets' options took (alerts/' own parser until the grammar was one):
    ['30 s', 30_000],
    ['1.5 h', 5_400_000],
    [' 30s ', 30_000],
    [1.5, 1.5],
    ['1 h30m', 5_400_000],
  ])('%j is %d ms', (written, ms) => {
    expect(parseDuration(written)).toBe(ms)
  })

  it.each(['', '  ', '10', '1hour', '10 seconds', '30m1h', '1h1h', '5w', '-1s', 's', '1h 30m', '30s,'])(
    'rejects %j',
    (written) => {
      expect(parseDuration(written)).toBeUndefined()
    },
  )

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the number %d', (n) => {
    expect(parseDuration(n)).toBeUndefined()
  })
})

describe('interpolateEnv', () => {
  const env = { KEY: 'sk-1', EMPTY: '', DIR: '/run/secrets' }

  it('replaces ${VAR}, anywhere in the string and more than once', () => {
    expect(interpolateEnv('${KEY}', env)).toEqual({ ok: true, value: 'sk-1', referenced: true })
    expect(interpolateEnv('${DIR}/key-${KEY}', env)).toEqual({
      ok: true,
      value: '/run/secrets/key-sk-1',
      referenced: true,
    })
  })

  it('uses the default of ${VAR:-default} when the variable is unset or empty', () => {
    expect(interpolateEnv('${NOPE:-fallback}', env)).toMatchObject({ value: 'fallback' })
    expect(interpolateEnv('${EMPTY:-fallback}', env)).toMatchObject({ value: 'fallback' })
    expect(interpolateEnv('${KEY:-fallback}', env)).toMatchObject({ value: 'sk-1' })
    expect(interpolateEnv('${NOPE:-}', env)).toMatchObject({ value: '' })
  })

  it('keeps text without references as is, and $${ writes a literal ${', () => {
    expect(interpolateEnv('cost $5', env)).toEqual({ ok: true, value: 'cost $5', referenced: false })
    expect(interpolateEnv('$${KEY}', env)).toEqual({ ok: true, value: '${KEY}', referenced: false })
  })

  it('names the variable, never a value, when it fails', () => {
    expect(interpolateEnv('${NOPE}', env)).toEqual({ ok: false, message: '${NOPE} is not set' })
    expect(interpolateEnv('a ${KEY', env)).toMatchObject({ ok: false, message: expect.stringContaining('unclosed') })
    expect(interpolateEnv('${1X}', env)).toMatchObject({
      ok: false,
      message: expect.stringContaining('malformed reference'),
    })
    expect(interpolateEnv('${}', env)).toMatchObject({ ok: false })
  })
})

describe('parseRegex', () => {
  it('reads /pattern/flags literals', () => {
    expect(parseRegex('/Timeout|ECONNREFUSED/', false)).toEqual({ ok: true, regex: /Timeout|ECONNREFUSED/ })
    expect(parseRegex('/timeout/im', false)).toEqual({ ok: true, regex: /timeout/im })
    expect(parseRegex('/a\\/b/', false)).toEqual({ ok: true, regex: /a\/b/ })
  })

  it('takes a bare pattern where one is allowed', () => {
    expect(parseRegex('exited with code \\d+', true)).toEqual({ ok: true, regex: /exited with code \d+/ })
    expect(parseRegex('plain', false)).toMatchObject({ ok: false })
  })

  it('refuses stateful flags and patterns that do not compile', () => {
    expect(parseRegex('/x/g', false)).toEqual({
      ok: false,
      message: 'unsupported regex flag "g" (allowed: i, m, s, u)',
    })
    expect(parseRegex('/x/ii', false)).toMatchObject({ ok: false, message: expect.stringContaining('repeated') })
    expect(parseRegex('/(a/', false)).toMatchObject({
      ok: false,
      message: expect.stringContaining('invalid regular expression'),
    })
  })
})

describe('didYouMean', () => {
  it('counts a swapped pair as one edit', () => {
    expect(editDistance('tempalte', 'template')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('', 'abc')).toBe(3)
  })

  it('suggests close names and spelling variants, and nothing for far ones', () => {
    expect(didYouMean('oncal-sms', ['team-chat', 'oncall-sms'])).toBe('oncall-sms')
    expect(didYouMean('baseUrl', ['base_url', 'api_key'])).toBe('base_url')
    expect(didYouMean('notfy', ['notify', 'name'])).toBe('notify')
    expect(didYouMean('database', ['api', 'worker'])).toBeUndefined()
    expect(didYouMean('x', ['ab'])).toBeUndefined()
  })
})

describe('positions and paths', () => {
  const source = readYamlSource('a:\n  b: [1, 2]\n  "c.d":\n    - e: x\n')

  it('maps a path to the line:col of its value or key', () => {
    expect(source.locate(['a', 'b', 1], 'value')).toEqual({ line: 2, col: 10 })
    expect(source.locate(['a', 'c.d'], 'key')).toEqual({ line: 3, col: 3 })
    expect(source.locate(['a', 'c.d', 0, 'e'], 'value')).toEqual({ line: 4, col: 10 })
  })

  it('falls back to the closest existing ancestor for a key that is missing', () => {
    expect(source.locate(['a', 'zzz', 'y'], 'value')).toEqual({ line: 2, col: 3 })
  })

  it('formats paths with indexes and quoted dotted keys', () => {
    expect(formatPath(['rules', 0, 'notify', 1])).toBe('rules[0].notify[1]')
    expect(formatPath(['channels', 'oncall-sms', 'type'])).toBe('channels.oncall-sms.type')
    expect(formatPath(['rules', 0, 'match', 'err.type'])).toBe('rules[0].match["err.type"]')
  })

  it('parses listen addresses', () => {
    expect(parseListen('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 })
    expect(parseListen('[::1]:80')).toEqual({ host: '::1', port: 80 })
    expect(parseListen(':0')).toEqual({ host: '127.0.0.1', port: 0 })
    expect(parseListen('localhost')).toBeUndefined()
    expect(parseListen('h:70000')).toBeUndefined()
  })
})

describe('console and acknowledgement values', () => {
  it('the hint takes {{number}} only, spaced or not', () => {
    expect(checkHint('Ack: missed call {{number}}')).toBeUndefined()
    expect(checkHint('Ack: call the NOC')).toBeUndefined()
    expect(checkHint('{{ number }} or {{title}}')).toBe(
      'unknown placeholder {{title}} in "{{ number }} or {{title}}" (the hint takes only {{number}})',
    )
    expect(fillHint('Ack: {{ number }} / {{number}}', '+918033333333')).toBe('Ack: +918033333333 / +918033333333')
  })
})
