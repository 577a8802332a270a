// Lines an attacker or a broken app could write: nesting deep enough to overflow any recursive walk,
// keys named after the prototype chain, and redacted values that must not survive in what the
// engine keeps of a line.
import { describe, expect, it } from 'vitest'
import { MAX_DEPTH, parseLine, TOO_DEEP } from '../../alerts/line'
import { censorLine, UNPARSED_WITHHELD } from '../../alerts/secrets'
import { createTestEngine } from './helpers'

const nested = (levels: number, open: string, close: string): string => `${open.repeat(levels)}1${close.repeat(levels)}`

describe('hostile lines', () => {
  it('a line nested 100,000 levels deep still alerts, its deep part replaced by a marker', () => {
    const engine = createTestEngine({
      channels: [{ type: 'sms' }, { type: 'mail' }, { type: 'incident' }],
      redact: ['x.a'],
      secrets: ['planted-secret'],
      rules: [{ name: 'g', group_by: ['x'] }],
    })
    for (const [i, deep] of [nested(100_000, '{"a":', '}'), nested(100_000, '[', ']')].entries()) {
      const sent = engine.ingest(`{"level":50,"msg":"deep ${i}","x":${deep}}`, i)
      expect(sent.map((d) => d.channelType).sort()).toEqual(['incident', 'mail', 'sms'])
    }
  })

  it('clips at MAX_DEPTH and keeps everything above it', () => {
    const line = parseLine(`{"level":50,"msg":"m","ok":{"b":[1,2]},"x":${nested(MAX_DEPTH + 5, '{"a":', '}')}}`)
    expect(line.record.ok).toEqual({ b: [1, 2] })
    let at: unknown = line.record.x
    let depth = 1
    while (typeof at === 'object' && at !== null) {
      at = (at as { a: unknown }).a
      depth++
    }
    expect(at).toBe(TOO_DEEP)
    expect(depth).toBe(MAX_DEPTH)
    expect(JSON.stringify(parseLine(`{"level":50,"x":${nested(MAX_DEPTH - 2, '[', ']')}}`).record)).not.toContain(
      TOO_DEEP,
    )
  })

  it('__proto__ and constructor keys stay data: nothing reaches Object.prototype', () => {
    const engine = createTestEngine({ channels: [{ type: 'sms', template: '{{msg}}|{{polluted}}|{{isAdmin}}' }] })
    const sent = engine.ingest(
      '{"level":50,"msg":"p","__proto__":{"polluted":"yes","isAdmin":true},"constructor":{"prototype":{"polluted":"yes"}},"x":' +
        nested(MAX_DEPTH + 2, '{"__proto__":', '}') +
        '}',
      0,
    )
    expect(sent[0]?.message).toEqual({ type: 'sms', text: 'p||' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('isAdmin')
  })

  it('censorLine: raw follows the redacted record, so nothing kept of the line holds the value', () => {
    const line = parseLine(JSON.stringify({ level: 50, msg: 'key sk-live-abcdef', user: { password: 'hunter2' } }))
    const clean = censorLine(line, [['user', 'password']], ['sk-live-abcdef'])
    expect(clean.raw).not.toContain('hunter2')
    expect(clean.raw).not.toContain('sk-live-abcdef')
    expect(JSON.parse(clean.raw)).toEqual({ level: 50, msg: 'key [redacted]', user: { password: '[redacted]' } })
    expect(line.raw).toContain('hunter2')
    // Lines without any of the paths are not copied.
    const other = parseLine('{"level":50,"msg":"m"}')
    expect(censorLine(other, [['user', 'password']], [])).toBe(other)
    const text = censorLine(parseLine('ERROR password=hunter2'), [['msg']], [])
    expect([text.msg, text.raw]).toEqual(['[redacted]', '[redacted]'])
  })

  it('censorLine: a line that looks like JSON but did not parse (cut, malformed) is withheld once redact paths are set', () => {
    const cut = parseLine('{"level":50,"msg":"boom","password":"hunter2","pad":"' + 'x'.repeat(100))
    expect(cut.json).toBe(false)
    const clean = censorLine(cut, [['password']], [])
    expect(JSON.stringify(clean)).not.toContain('hunter2')
    expect(clean.level).toBe(50)
    expect(clean.msg).toBe(UNPARSED_WITHHELD)
    // Without redact paths nothing names a field to hide: the text goes as it is (secrets still cut out).
    expect(censorLine(cut, [], ['hunter2']).raw).not.toContain('hunter2')
    expect(censorLine(cut, [], []).raw).toContain('"msg":"boom"')
    // Plain text is not JSON: only a `msg` path censors it, as before (its message is the text after the level).
    expect(censorLine(parseLine('ERROR password=hunter2'), [['password']], []).msg).toBe('password=hunter2')
  })
})

describe('giant lines', () => {
  it('make messages an API accepts: every part capped, fields counted past the limit', () => {
    const engine = createTestEngine({
      channels: [
        { type: 'sms' },
        { type: 'mail' },
        { type: 'chat', variables: ['{{msg}}', '{{title}}'] },
        { type: 'incident' },
      ],
    })
    const fields = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, '<'.repeat(5000)]))
    const huge = 'x'.repeat(2_000_000)
    const sent = engine.ingest(JSON.stringify({ level: 50, msg: huge, ...fields, err: { stack: `Error\n${huge}` } }), 0)
    expect(sent.map((d) => d.channelType).sort()).toEqual(['chat', 'incident', 'mail', 'sms'])
    for (const d of sent) expect(JSON.stringify(d.message).length, d.channelType).toBeLessThan(1_000_000)
    const mail = sent.find((d) => d.message.type === 'mail')?.message
    expect(mail?.type === 'mail' && mail.text).toContain('400 more field(s)')
    expect(sent[0]?.notice.incident.title).toHaveLength(1024)
  })
})
