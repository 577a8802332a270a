import { describe, expect, it } from 'vitest'
import { annotateLine } from '../../../agent/transports/tail-filter/annotate'
import { createTailFilter } from '../../../agent/transports/tail-filter'
import { parseLine } from '../../../alerts'

async function run(options: unknown, chunks: string[]): Promise<string[]> {
  const filter = createTailFilter(options)
  const out: string[] = []
  filter.on('data', (chunk: Buffer) => out.push(chunk.toString()))
  for (const chunk of chunks) filter.write(chunk)
  filter.end()
  await new Promise((resolve) => filter.on('end', resolve))
  return out.join('').split('\n').filter(Boolean)
}

describe('byte pre-filter (the one the agent uses)', () => {
  it('keeps what the full path selects, even in layouts the level is not first in', async () => {
    const lines = [
      '{"level":30,"msg":"fine"}',
      '{"msg":"spaced key","level" : 50}',
      '{"level":30,"msg":"last key wins","level":50}',
      '{"time":1,"level":"fatal","msg":"label"}',
      '[Sun Dec 04 04:47:44 2005] [error] mod_jk',
      'plain words',
    ]
    const out = await run({ annotate: false }, [lines.join('\n') + '\n'])
    expect(out).toEqual([lines[1], lines[2], lines[3], lines[4]])
  })
})

describe('annotation', () => {
  it('inserts the rule into JSON lines and wraps plain text', () => {
    expect(annotateLine(parseLine('{"level":50,"msg":"x"}'), 'db')).toBe('{"logx_rule":"db","level":50,"msg":"x"}')
    expect(annotateLine(parseLine('{}'), 'db')).toBe('{"logx_rule":"db"}')
    expect(JSON.parse(annotateLine(parseLine('[x] [error] boom'), 'db'))).toEqual({
      level: 50,
      msg: '[x] [error] boom',
      logx_rule: 'db',
      logx_text: true,
    })
  })
})

describe('logx-tail-filter stream', () => {
  it('passes only selected lines, annotated, across chunk boundaries', async () => {
    const lines = [
      '{"level":30,"msg":"ok"}',
      '{"level":50,"msg":"db down","err":{"type":"DbError"}}',
      '{"level":40,"msg":"slow"}',
      '{"level":60,"msg":"dead"}',
      'not json at all',
      '{"level":50,"msg":"broken json',
    ]
    const text = `${lines.join('\n')}\n`
    const out = await run({}, [text.slice(0, 37), text.slice(37, 90), text.slice(90)])
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { logx_rule: 'default', level: 50, msg: 'db down', err: { type: 'DbError' } },
      { logx_rule: 'default', level: 60, msg: 'dead' },
      // Broken JSON at error level is not lost: it travels as text.
      { logx_rule: 'default', level: 50, msg: '{"level":50,"msg":"broken json', logx_text: true },
    ])
  })

  it('applies rule matchers and names the rule that matched', async () => {
    const rules = [
      { name: 'db', match: { 'err.type': 'DbError' } },
      { name: 'warn-api', level: 'warn', source: 'api' },
    ]
    const out = await run({ rules, source: 'api' }, [
      '{"level":50,"err":{"type":"DbError"}}\n{"level":40,"msg":"w"}\n{"level":50,"msg":"other"}\n',
    ])
    expect(out.map((l) => JSON.parse(l).logx_rule)).toEqual(['db', 'warn-api', 'warn-api'])
  })

  it('can pass lines unannotated, and passes a last line without newline at end', async () => {
    expect(await run({ annotate: false }, ['{"level":50,"msg":"a"}'])).toEqual(['{"level":50,"msg":"a"}'])
  })

  it('counts lines, candidates and passes', async () => {
    const filter = createTailFilter({ rules: [{ message: 'db' }] })
    filter.resume()
    filter.write('{"level":30,"msg":"ok"}\n{"level":50,"msg":"db"}\n{"level":50,"msg":"web"}\n')
    expect(filter.stats()).toEqual({ lines: 3, candidates: 2, passed: 1 })
  })
})

describe('logx-tail-filter property', () => {
  it('output does not depend on where chunks are cut', async () => {
    const { default: fc } = await import('fast-check')
    const lines = [
      '{"level":50,"msg":"é db down"}',
      '{"level":30,"msg":"ok"}',
      '[Sun Dec 04 04:47:44 2005] [error] mod_jk',
      '{"time":1,"level":60,"msg":"x"}',
      'plain',
    ]
    const bytes = Buffer.from(`${lines.join('\n')}\n`)
    const whole = await run({}, [bytes.toString()])
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 8 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), bytes.length]
          const filter = createTailFilter({})
          const out: Buffer[] = []
          filter.on('data', (c: Buffer) => out.push(c))
          for (let i = 0; i < points.length - 1; i++) filter.write(bytes.subarray(points[i], points[i + 1]))
          filter.end()
          await new Promise((resolve) => filter.on('end', resolve))
          expect(Buffer.concat(out).toString().split('\n').filter(Boolean)).toEqual(whole)
        },
      ),
      { numRuns: 50 },
    )
  })
})
