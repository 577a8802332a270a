// Hostile input for the drills: generators of lines a broken or malicious app could write (malformed
// JSON, invalid UTF-8, NUL bytes, deep nesting, prototype-named keys, template placeholders), of
// broken configs and garbage options, and the checks that Object.prototype came out untouched.
import fc from 'fast-check'

/** Placeholders and expression syntaxes a renderer must never expand. */
export const PLACEHOLDERS = [
  '{{rule}}',
  '{{msg}}',
  '{{ title }}',
  '{{fingerprint}}',
  '{{constructor.constructor}}',
  '{{__proto__}}',
  '${process.env.HOME}',
  '${7*7}',
  '#{7*7}',
  '<%= 7*7 %>',
  '{{#each x}}',
  '}}{{',
  '{{{raw}}}',
  '%s%d%j',
] as const

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const

/** Nested `levels` deep: `{"a":{"a":...1...}}` or `[[[...1...]]]`. */
export function nested(levels: number, kind: 'object' | 'array'): string {
  return kind === 'object'
    ? `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
    : `${'['.repeat(levels)}1${']'.repeat(levels)}`
}

/** A JSON object text with keys written as given (JSON.stringify could not write `__proto__` as a key). */
export function objectText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`
}

/** Byte sequences that are not UTF-8: lone continuation bytes, overlongs, surrogates, truncated sequences, 0xFF. */
export const invalidUtf8 = (): fc.Arbitrary<Buffer> =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          [0x80],
          [0xbf],
          [0xc0, 0xaf],
          [0xe0, 0x80, 0xaf],
          [0xed, 0xa0, 0x80],
          [0xf4, 0x90, 0x80, 0x80],
          [0xff],
          [0xfe],
          [0xe2, 0x82],
          [0xf0, 0x9f],
        ),
        fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => [...a]),
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((parts) => Buffer.from(parts.flat()))

/** A string value that may hold NUL bytes, placeholders and other control characters. */
export const hostileText = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string(),
    fc.constantFrom(...PLACEHOLDERS),
    fc
      .tuple(
        fc.string({ maxLength: 10 }),
        fc.constantFrom(...PLACEHOLDERS, '\u0000', '\u0000\u0000', '\r', '\u2028', '\ud800'),
        fc.string({ maxLength: 10 }),
      )
      .map((p) => p.join('')),
  )

/** Lines as bytes: some valid JSON log lines, most of them broken in one way or another. */
export const hostileLine = (): fc.Arbitrary<Buffer> =>
  fc.oneof(
    // Malformed JSON: a valid line cut short, with a byte changed, or with garbage appended.
    fc.tuple(fc.json(), fc.nat(), fc.string({ maxLength: 3 })).map(([json, at, junk]) => {
      const text = `{"level":50,"v":${json}}`
      const cut = at % (text.length + 1)
      return Buffer.from(text.slice(0, cut) + junk + text.slice(cut + 1))
    }),
    fc.string().map((s) => Buffer.from(`{${s}`)),
    // Invalid UTF-8 inside a JSON string, before it, and alone.
    fc
      .tuple(invalidUtf8(), fc.boolean())
      .map(([bad, inString]) =>
        inString
          ? Buffer.concat([Buffer.from('{"level":50,"msg":"'), bad, Buffer.from('"}')])
          : Buffer.concat([bad, Buffer.from(' ERROR broken')]),
      ),
    // NUL bytes: raw (not valid JSON) and escaped (valid).
    hostileText().map((s) => Buffer.from(`{"level":50,"msg":"nul\u0000${s.replace(/["\\]/g, '')}"}`)),
    hostileText().map((s) => Buffer.from(JSON.stringify({ level: 50, msg: `nul\u0000${s}` }))),
    // Prototype-named keys at the top and nested.
    fc.tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom(...PROTO_KEYS), hostileText()).map(([a, b, v]) =>
      Buffer.from(
        objectText([
          ['level', '50'],
          ['msg', JSON.stringify(v)],
          [
            a,
            objectText([
              [
                b,
                objectText([
                  ['polluted', '"yes"'],
                  ['isAdmin', 'true'],
                ]),
              ],
            ]),
          ],
        ]),
      ),
    ),
    // Moderately deep nesting (the 100k-level cases are fixed examples: generating them is slow).
    fc
      .tuple(fc.integer({ min: 50, max: 2000 }), fc.constantFrom('object' as const, 'array' as const))
      .map(([n, kind]) => Buffer.from(`{"level":50,"msg":"deep","x":${nested(n, kind)}}`)),
    // Anything at all, and lines that are not objects.
    fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
    fc.json().map((j) => Buffer.from(j)),
  )

/** Snapshot of what a polluted prototype would change. */
export function prototypeSnapshot(): string {
  const names = (o: object): string => Object.getOwnPropertyNames(o).sort().join(',')
  return [
    names(Object.prototype),
    names(Array.prototype),
    names(Function.prototype),
    String(Object.getPrototypeOf({}) === Object.prototype),
  ].join('|')
}

export function polluted(): string[] {
  const probe: Record<string, unknown> = {}
  return ['polluted', 'isAdmin', 'a'].filter((k) => probe[k] !== undefined || k in Object.prototype)
}

/** A valid agent config, as lines, that the config fuzzing breaks one edit at a time. */
export const VALID_CONFIG_LINES = [
  'messaging:',
  '  sandbox:',
  '    listen: 127.0.0.1:0',
  'state_dir: ./state',
  'sources:',
  '  - name: app',
  '    paths: [./logs/*.log]',
  '    format: auto',
  '    max_line_bytes: 65536',
  'channels:',
  '  oncall-sms:',
  '    type: sms',
  '    numbers: [919800000001]',
  '    template: "{{status}} {{title}}"',
  '  team-chat:',
  '    type: chat',
  '    numbers: ["+919800000002"]',
  '    template_id: 101',
  'rules:',
  '  - name: errors',
  '    level: error',
  '    group_wait: 10s',
  '    match: { err.type: /Timeout/i }',
  '    notify: [oncall-sms]',
  '    escalate: [{ after: 5m, notify: team-chat }]',
  'silences: []',
  'redact: [user.password]',
  'metrics:',
  '  listen: 127.0.0.1:0',
] as const

const CONFIG_GARBAGE = [
  ':',
  '- ',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '\t',
  '  ',
  '&a',
  '*a',
  '!!binary',
  '%YAML',
  '---',
  '${',
  '${UNSET_VAR_X}',
  '#',
  '|',
  '>',
  '?',
  '@',
  '`',
  '\u0000',
  '\ufeff',
  'null',
  '~',
  '-1',
  '1e999',
  '0x',
  '/(/',
  '{{',
  '}}',
  '10 seconds',
  'nope',
] as const

/** One to three edits of the valid config: a line dropped, duplicated or swapped, garbage inserted, a value replaced. */
export const brokenConfig = (): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.nat({ max: 4 }), fc.nat(), fc.nat(), fc.constantFrom(...CONFIG_GARBAGE)), {
      minLength: 1,
      maxLength: 3,
    })
    .map((edits) => {
      const lines: string[] = [...VALID_CONFIG_LINES]
      for (const [op, a, b, junk] of edits) {
        const i = a % lines.length
        const line = lines[i] ?? ''
        switch (op) {
          case 0:
            lines.splice(i, 1)
            break
          case 1:
            lines.splice(i, 0, line)
            break
          case 2: {
            const j = b % lines.length
            lines[i] = lines[j] ?? ''
            lines[j] = line
            break
          }
          case 3: {
            const at = b % (line.length + 1)
            lines[i] = line.slice(0, at) + junk + line.slice(at)
            break
          }
          default: {
            const colon = line.indexOf(': ')
            lines[i] = colon === -1 ? junk : `${line.slice(0, colon + 2)}${junk}`
          }
        }
      }
      return `${lines.join('\n')}\n`
    })

/** `file:line:col path: message`, as formatProblem prints a problem. */
export const PROBLEM_LINE = /^.+:\d+:\d+ \S*:? ?.+$/

/** A line of a stack trace, which a user-facing error must never print. */
export const STACK_LINE = /^\s+at .+\(?.+:\d+:\d+\)?$/m
