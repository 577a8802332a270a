// The per-line path made cheap (compiled dot paths, skipped mask passes, one censor and one key per
// line) must give what the straightforward versions gave: each is checked against a reference
// written the plain way, on generated input.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePath, createRedactor, getPath, redactPaths } from '../../alerts/dot-path'
import { fingerprint, maskMessage } from '../../alerts/fingerprint'
import { hash53 } from '../../alerts/hash53'
import { parseLine, type AlertLine } from '../../alerts/line'
import { censorLine, createCensor, scrubLine } from '../../alerts/secrets'
import { createTestEngine, ruleOf } from './helpers'

// The masks and the hash as they were first written: every pass over every message.
const REFERENCE_MASKS: readonly [RegExp, string][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<ip>'],
  [/\d+/g, '<n>'],
]
function referenceMask(message: string): string {
  let out = message.length > 500 ? message.slice(0, 500) : message
  for (const [pattern, replacement] of REFERENCE_MASKS) out = out.replace(pattern, replacement)
  return out
}
function referenceHash(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0')
}

// Messages built from the pieces the masks look for, so that the patterns do match.
const piece = fc.oneof(
  fc.constantFrom('-', '.', ':', ' ', '0x', '0X', 'x', 'abcdef', 'ABCDEF', '_', '\u0010', 'é', 'g'),
  fc.stringMatching(/^[0-9a-fA-F]{1,13}$/),
  fc.nat().map(String),
  fc.uuid(),
  fc.ipV4(),
  fc.tuple(fc.ipV4(), fc.nat(65535)).map(([ip, port]) => `${ip}:${port}`),
)
const message = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''))

describe('fingerprint, made cheap', () => {
  it('masks exactly as every pass over every message did', () => {
    fc.assert(
      fc.property(fc.oneof(message, fc.string()), (msg) => {
        expect(maskMessage(msg)).toBe(referenceMask(msg))
      }),
      { numRuns: 5000 },
    )
    const longer = 'x'.repeat(495) + '123e4567-e89b-12d3-a456-426614174000'
    expect(maskMessage(longer)).toBe(referenceMask(longer))
  })

  it('hashes to the same keys as before (keys are kept in the state file across upgrades)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(hash53(text)).toBe(referenceHash(text))
      }),
      { numRuns: 5000 },
    )
    expect(hash53('')).toBe(referenceHash(''))
  })

  it('group_by keys come from the compiled paths, own properties only', () => {
    const rule = ruleOf({ name: 'r', group_by: ['err.type', 'a.b.c', 'constructor.name'] })
    const line = parseLine(JSON.stringify({ level: 50, msg: 'x', err: { type: 'DbError' }, a: { b: { c: 1 } } }))
    expect(fingerprint(rule, line)).toBe(
      `r:${referenceHash(['err.type="DbError"', 'a.b.c=1', 'constructor.name=null'].join('\u0000'))}`,
    )
  })
})

describe('compiled dot paths', () => {
  it('read what a walk of the split path reads', () => {
    const record = JSON.parse('{"a":{"b":{"c":[1,{"d":2}]}},"__proto__":{"x":1},"e":null}') as Record<string, unknown>
    for (const path of [
      'a',
      'a.b',
      'a.b.c',
      'a.b.c.1.d',
      'a.b.c.length',
      '__proto__.x',
      'constructor',
      'toString',
      'e.f',
      'missing.x',
    ]) {
      let expected: unknown = record
      for (const key of path.split('.')) {
        expected =
          typeof expected === 'object' && expected !== null && Object.hasOwn(expected, key)
            ? (expected as Record<string, unknown>)[key]
            : undefined
      }
      expect(compilePath(path)(record)).toBe(expected)
      expect(getPath(record, path)).toBe(expected)
    }
  })

  it('redact copies along the path only, never touches the input, keeps __proto__ as data', () => {
    const text = '{"a":{"b":"secret","keep":{"k":1}},"__proto__":{"p":"x"},"list":[{"t":"s"}],"other":{"o":1}}'
    const record = JSON.parse(text) as Record<string, unknown>
    const redact = createRedactor([
      ['a', 'b'],
      ['__proto__', 'p'],
      ['list', '0', 't'],
      ['list', 'length'],
      ['nothing', 'here'],
    ])
    const out = redact(record)
    expect(JSON.stringify(record)).toBe(text)
    expect(JSON.stringify(out)).toBe(
      '{"a":{"b":"[redacted]","keep":{"k":1}},"__proto__":{"p":"[redacted]"},"list":[{"t":"[redacted]"}],"other":{"o":1}}',
    )
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.hasOwn(out, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).p).toBeUndefined()
    expect(Array.isArray(out.list)).toBe(true)
    // Untouched branches are shared, not copied.
    expect(out.other).toBe(record.other)
    expect((out.a as Record<string, unknown>).keep).toBe((record.a as Record<string, unknown>).keep)
    // A record holding none of the paths is returned as is.
    const plain = { level: 50, msg: 'x' }
    expect(redact(plain)).toBe(plain)
    expect(redactPaths(record, [['a', 'b']])).toEqual(JSON.parse(text.replace('"secret"', '"[redacted]"')))
  })

  it('redact wildcards: every key of an object, every element of an array, at any depth of the path', () => {
    const record = JSON.parse(
      '{"user":{"password":"p1","name":"n"},"admin":{"password":"p2"},"cards":[{"number":"4111","cvc":1},{"number":"5500"}],"n":3}',
    ) as Record<string, unknown>
    const out = createRedactor([
      ['*', 'password'],
      ['cards', '*', 'number'],
    ])(record)
    expect(out).toEqual({
      user: { password: '[redacted]', name: 'n' },
      admin: { password: '[redacted]' },
      cards: [{ number: '[redacted]', cvc: 1 }, { number: '[redacted]' }],
      n: 3,
    })
    expect((record.user as Record<string, unknown>).password).toBe('p1')
    expect(Array.isArray(out.cards)).toBe(true)
    // A wildcard that reaches nothing copies nothing.
    const plain = { level: 50, list: [1, 2], user: 'ann' }
    expect(
      createRedactor([
        ['*', 'password'],
        ['list', '*', 'x'],
      ])(plain),
    ).toBe(plain)
    // A terminal wildcard censors every value under it.
    expect(createRedactor([['headers', '*']])({ headers: { a: 1, b: 'x' }, keep: 1 })).toEqual({
      headers: { a: '[redacted]', b: '[redacted]' },
      keep: 1,
    })
  })
})

describe('censoring, made cheap', () => {
  const secrets = ['sk_live_0123456789', '98765432']

  it('a line without a secret is not copied', () => {
    const line = parseLine('{"level":50,"msg":"boom","stack":"Error\\n    at x (/a.js:1:1)"}')
    expect(createCensor([], secrets)(line)).toBe(line)
    expect(scrubLine(line, secrets)).toBe(line)
    const text = parseLine('2024-01-01 ERROR boom')
    expect(createCensor([], secrets)(text)).toBe(text)
  })

  it('finds a secret the JSON text spells with \\u escapes', () => {
    const line = parseLine('{"level":50,"msg":"key \\u0073k_live_0123456789 leaked","k\\u0073_live_0123456789":1}')
    const clean = censorLine(line, [], secrets)
    expect(clean.msg).toBe('key [redacted] leaked')
    expect(JSON.stringify(clean.record)).not.toContain('sk_live_0123456789')
    expect(clean.raw).not.toContain('sk_live_0123456789')
    expect(clean.raw).not.toContain('\\u0073k_live')
    expect(JSON.parse(clean.raw)).toEqual(clean.record)
  })

  it('a number that spells a secret is censored instead of breaking the line', () => {
    // This once made the censored JSON unparsable, and the line threw in the daemon, stopping its source.
    const line = parseLine('{"level":50,"msg":"card","pin":98765432,"list":[1,98765432]}')
    const clean = censorLine(line, [], secrets)
    expect(clean.record).toEqual({ level: 50, msg: 'card', pin: '[redacted]', list: [1, '[redacted]'] })
    expect(clean.raw).not.toContain('98765432')
  })

  it('gives what a stringify-scrub-parse of the record gave, on lines with secrets in strings', () => {
    const secret = 'tok-5e3b91a7c2'
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string(),
          fc.oneof(
            fc.string(),
            fc.string().map((s) => `${s}${secret}${s}`),
            fc.integer(),
          ),
        ),
        (fields) => {
          const line = parseLine(JSON.stringify({ level: 50, msg: `m ${secret}`, ...fields }))
          const clean = censorLine(line, [], [secret])
          const expected = JSON.parse(JSON.stringify(line.record).split(secret).join('[redacted]')) as unknown
          expect(clean.record).toEqual(expected)
          expect(clean.raw).not.toContain(secret)
          expect(clean.msg).not.toContain(secret)
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('engine: select, then ingestSelected', () => {
  const options = {
    rules: [{ name: 'r', group_wait: 0 }],
    channels: [{ type: 'sms' as const }],
    redact: ['user'],
    secrets: ['sk_live_0123456789'],
  }
  const lines = [
    '{"level":50,"msg":"db down sk_live_0123456789","user":"ann"}',
    '{"level":30,"msg":"fine"}',
    '{"level":50,"msg":"db down sk_live_0123456789","user":"bob"}',
    '2024-01-01 ERROR cache 42 gone',
  ]

  it('selects, censors and keys each line once, with the key fingerprint() gives the censored line', () => {
    const engine = createTestEngine(options)
    const line = parseLine(lines[0] as string, 'app')
    const selected = engine.select(line)
    if (selected === undefined) throw new Error('not selected')
    const clean: AlertLine = censorLine(
      line,
      options.redact.map((path) => path.split('.')),
      options.secrets,
    )
    expect(selected.line).toEqual(clean)
    expect(selected.key).toBe(fingerprint(selected.rule, clean))
    expect(engine.select(parseLine(lines[1] as string))).toBeUndefined()
    expect(engine.stats()).toMatchObject({ lines: 2, selected: 1 })
  })

  it('sends what ingest() sends', () => {
    const a = createTestEngine(options)
    const b = createTestEngine(options)
    lines.forEach((text, i) => {
      const viaIngest = a.ingest(text, 1000 + i, 'app')
      const selected = b.select(text, 'app')
      const viaSelect = selected === undefined ? [] : b.ingestSelected(selected, 1000 + i)
      expect(viaSelect).toEqual(viaIngest)
    })
    expect(b.stats()).toEqual(a.stats())
  })
})
