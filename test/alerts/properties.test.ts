import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fingerprint, maskMessage } from '../../alerts/fingerprint'
import { parseLine } from '../../alerts/line'
import { compileTemplate } from '../../alerts/template'
import { createTestEngine, ruleOf } from './helpers'

describe('properties', () => {
  it('an inserted value comes out verbatim, whatever it contains', () => {
    const t = compileTemplate('<{{msg}}>', 't')
    fc.assert(
      fc.property(fc.string(), (msg) => {
        expect(t.render({ vars: { secret: 'S' }, record: { msg } })).toBe(`<${msg}>`)
      }),
    )
  })

  it('the same message with other numbers is the same incident', () => {
    const rule = ruleOf({ name: 'r' })
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        const line = (n: number) => parseLine(JSON.stringify({ level: 50, msg: `user ${n} failed after ${n * 3}ms` }))
        expect(fingerprint(rule, line(a))).toBe(fingerprint(rule, line(b)))
      }),
    )
  })

  it('masking leaves no digits', () => {
    fc.assert(
      fc.property(fc.string(), (msg) => {
        expect(maskMessage(msg)).not.toMatch(/\d/)
      }),
    )
  })

  it('the engine never throws on arbitrary input lines', () => {
    const engine = createTestEngine({ channels: [{ type: 'sms' }, { type: 'mail' }] })
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), fc.nat(), (line, now) => {
        expect(() => engine.ingest(line, now)).not.toThrow()
        expect(() => engine.tick(now)).not.toThrow()
      }),
    )
  })
})
