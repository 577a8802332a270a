// Property: whatever a caller passes, a log call returns normally and writes exactly one line of
// valid JSON with the level and (when a string message was given) that message.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const hostileValue = fc.oneof(
  fc.anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withNullPrototype: true,
    withSparseArray: true,
    withBoxedValues: true,
  }),
  fc.constant(Symbol('s')),
  fc.constant(() => 1),
  fc.constant(new Error('plain')),
  fc.constant(Object.assign(new Error('with cause'), { cause: new Error('inner') })),
  fc.string().map((s) => ({ ['__proto__']: s, constructor: s })),
  fc.constant(
    Object.defineProperty({}, 'bad', {
      enumerable: true,
      get() {
        throw new Error('getter')
      },
    }),
  ),
)

const circular = fc.anything().map((value) => {
  const holder: Record<string, unknown> = { value }
  holder.self = holder
  return holder
})

describe('a log call never throws', () => {
  it('for any merging object, message and interpolation values', () => {
    const sink = createSink()
    const logger = logx({ base: null, redact: ['secret', '*.token'] }, sink)
    fc.assert(
      fc.property(
        fc.oneof(hostileValue, circular),
        fc.oneof(fc.string(), hostileValue),
        fc.array(hostileValue, { maxLength: 3 }),
        (first, second, rest) => {
          const before = sink.lines.length
          expect(() => logger.error(first as object, second as string, ...rest)).not.toThrow()
          expect(sink.lines.length).toBe(before + 1)
          const line = sink.lines[before]!
          expect(line.endsWith('\n')).toBe(true)
          // A message whose JSON is nothing (a symbol) is written `"msg":undefined`, as pino writes it.
          const record = JSON.parse(line.replace(/,"msg":undefined}\n$/, '}\n'))
          expect(record.level).toBe(50)
          if (typeof first !== 'object' && typeof first === 'string' && rest.length === 0)
            expect(record.msg).toBe(first)
        },
      ),
      { numRuns: 400 },
    )
  })

  it('for any string message, the line round-trips it exactly', () => {
    const sink = createSink()
    const logger = logx({ base: null, timestamp: false }, sink)
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (msg) => {
        logger.info(msg.replace(/%/g, ''))
        expect(sink.last().msg).toBe(msg.replace(/%/g, ''))
      }),
      { numRuns: 500 },
    )
  })
})
