import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { LogxError, LogxErrorCodes } from '../../dist/logx/errors.js'
import { multistream, type MultiStreamRes } from '../../dist/logx/multistream.js'
import SonicBoom from 'sonic-boom'
import pino from 'pino'
import { suiteTempDir } from '../helpers/temp-dir'

const levelValues: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 }

/** A destination that records what it receives. */
function sink(): { lines: string[]; write(line: string): boolean } {
  const lines: string[] = []
  return {
    lines,
    write(line: string) {
      lines.push(line)
      return true
    },
  }
}

/** Does what the logger does before each write: metadata first, then the line. */
function logAt(ms: MultiStreamRes, level: number | string, msg: string): void {
  ms.lastLevel = level
  ms.lastMsg = msg
  ms.lastObj = { msg }
  ms.lastTime = ',"time":1'
  ms.lastLogger = undefined
  ms.write(`{"level":${typeof level === 'number' ? level : JSON.stringify(level)},"msg":"${msg}"}\n`)
}

const tmp = suiteTempDir('multistream')

describe('multistream routing', () => {
  it('declares the metadata protocol', () => {
    expect(multistream([])[Symbol.for('logx.metadata') as never]).toBe(true)
  })

  it('sends a line to every stream whose level is at or below it; entries without level get info', () => {
    const info = sink()
    const debug = sink()
    const fatal = sink()
    const ms = multistream([{ stream: info }, { level: 'debug', stream: debug }, { level: 'fatal', stream: fatal }])
    expect(ms.minLevel).toBe(20)
    logAt(ms, 20, 'd')
    logAt(ms, 30, 'i')
    logAt(ms, 60, 'f')
    logAt(ms, 10, 't')
    expect(debug.lines).toHaveLength(3)
    expect(info.lines.map((l) => JSON.parse(l).msg)).toEqual(['i', 'f'])
    expect(fatal.lines.map((l) => JSON.parse(l).msg)).toEqual(['f'])
  })

  it('counts like pino for the same stream registered at many levels', () => {
    const s = sink()
    const ms = multistream([
      { stream: s },
      { level: 'debug', stream: s },
      { level: 'trace', stream: s },
      { level: 'fatal', stream: s },
      { level: 'silent', stream: s },
    ])
    logAt(ms, 30, 'info')
    logAt(ms, 20, 'debug')
    logAt(ms, 60, 'fatal')
    // info: trace+debug+info; debug: trace+debug; fatal: trace+debug+info+fatal; silent never.
    expect(s.lines).toHaveLength(9)
  })

  it('accepts numeric levels and levelVal, which wins over level', () => {
    const a = sink()
    const b = sink()
    const ms = multistream([
      { level: 40, stream: a },
      { level: 'trace', levelVal: 50, stream: b },
    ])
    logAt(ms, 40, 'w')
    logAt(ms, 50, 'e')
    expect(a.lines).toHaveLength(2)
    expect(b.lines).toHaveLength(1)
  })

  it('takes a single stream or a single entry instead of an array', () => {
    const s = sink()
    const one = multistream(s)
    logAt(one, 30, 'i')
    logAt(one, 20, 'd')
    expect(s.lines).toHaveLength(1)
    const t = sink()
    const entry = multistream({ stream: t, level: 'fatal' })
    logAt(entry, 50, 'e')
    logAt(entry, 60, 'f')
    expect(t.lines).toHaveLength(1)
  })

  it('writes nowhere and does not throw with no streams', () => {
    const ms = multistream()
    expect(ms.streams).toEqual([])
    expect(() => logAt(ms, 60, 'f')).not.toThrow()
  })

  it('supports custom levels by name', () => {
    const notice = sink()
    const all = sink()
    const ms = multistream(
      [
        { level: 'notice', stream: notice },
        { level: 'trace', stream: all },
      ],
      { levels: { notice: 35 } },
    )
    logAt(ms, 30, 'info')
    logAt(ms, 35, 'notice')
    logAt(ms, 40, 'warn')
    expect(notice.lines.map((l) => JSON.parse(l).msg)).toEqual(['notice', 'warn'])
    expect(all.lines).toHaveLength(3)
  })

  it('resolves a level label in lastLevel (a relay that parsed the line)', () => {
    const debug = sink()
    const error = sink()
    const ms = multistream(
      [
        { level: 'debug', stream: debug },
        { level: 'error', stream: error },
      ],
      { levels: levelValues },
    )
    logAt(ms, 'error', 'boom')
    expect(debug.lines).toHaveLength(1)
    expect(error.lines).toHaveLength(1)
  })

  it('rejects entries that are not streams and unknown levels with LogxError codes', () => {
    expect(() => multistream([{ nope: true } as never])).toThrow(LogxError)
    try {
      multistream([{ level: 'loud', stream: sink() }])
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(LogxError)
      expect((err as LogxError).code).toBe(LogxErrorCodes.INVALID_STREAM)
      expect((err as Error).message).toContain('"loud"')
    }
    expect(() => multistream([]).add(42 as never)).toThrow(/write\(\) method/)
  })

  it('keeps delivering to the other streams when one throws, then reports the failure', () => {
    const before = sink()
    const after = sink()
    const broken = {
      write(): boolean {
        throw new Error('disk on fire')
      },
    }
    const ms = multistream([
      { level: 'trace', stream: before },
      { level: 'debug', stream: broken },
      { level: 'info', stream: after },
    ])
    expect(() => logAt(ms, 30, 'x')).toThrow('disk on fire')
    expect(before.lines).toHaveLength(1)
    expect(after.lines).toHaveLength(1)
  })
})

describe('dedupe', () => {
  it('sends each line only to the streams with the highest matching level', () => {
    const out = sink()
    const err = sink()
    const ms = multistream(
      [
        { level: 'debug', stream: out },
        { level: 'error', stream: err },
      ],
      { dedupe: true },
    )
    logAt(ms, 20, 'debug')
    logAt(ms, 30, 'info')
    logAt(ms, 50, 'error')
    logAt(ms, 60, 'fatal')
    logAt(ms, 10, 'trace')
    expect(out.lines.map((l) => JSON.parse(l).msg)).toEqual(['debug', 'info'])
    expect(err.lines.map((l) => JSON.parse(l).msg)).toEqual(['error', 'fatal'])
  })

  it('delivers to every stream that shares the winning level', () => {
    const low = sink()
    const a = sink()
    const b = sink()
    const ms = multistream(
      [
        { level: 'info', stream: low },
        { level: 'error', stream: a },
        { level: 'error', stream: b },
      ],
      { dedupe: true },
    )
    logAt(ms, 50, 'e')
    logAt(ms, 40, 'w')
    expect(a.lines).toHaveLength(1)
    expect(b.lines).toHaveLength(1)
    expect(low.lines.map((l) => JSON.parse(l).msg)).toEqual(['w'])
  })

  it('follows custom level tables (warn sharing error’s value)', () => {
    const out = sink()
    const err = sink()
    const ms = multistream(
      [
        { level: 'debug', stream: out },
        { level: 'error', stream: err },
      ],
      { dedupe: true, levels: { ...levelValues, warn: 50 } },
    )
    logAt(ms, 50, 'warn-or-error')
    logAt(ms, 30, 'info')
    expect(err.lines).toHaveLength(1)
    expect(out.lines).toHaveLength(1)
  })
})

describe('metadata forwarding', () => {
  it('sets lastLevel/lastMsg/lastObj/lastTime/lastLogger on streams that ask for them (logx or pino symbol)', () => {
    const seen: unknown[] = []
    const logxMeta = {
      [Symbol.for('logx.metadata')]: true,
      lastLevel: 0,
      write(this: Record<string, unknown>) {
        seen.push({ level: this.lastLevel, msg: this.lastMsg, obj: this.lastObj, time: this.lastTime })
      },
    }
    const pinoMeta = {
      [Symbol.for('pino.metadata')]: true,
      write(this: Record<string, unknown>) {
        seen.push({ level: this.lastLevel, msg: this.lastMsg })
      },
    }
    const plain: Record<string, unknown> & { write(): void } = { write() {} }
    const ms = multistream([{ stream: logxMeta }, { stream: pinoMeta }, { stream: plain }])
    logAt(ms, 40, 'hello')
    expect(seen).toEqual([
      { level: 40, msg: 'hello', obj: { msg: 'hello' }, time: ',"time":1' },
      { level: 40, msg: 'hello' },
    ])
    expect(plain.lastLevel).toBeUndefined()
  })
  it("routes a pino logger's lines as pino.multistream does (fastify and pino-http make their own pino)", () => {
    const run = (create: typeof multistream | typeof pino.multistream): string[][] => {
      const debug = sink()
      const errors = sink()
      const ms = create([
        { stream: debug, level: 'debug' },
        { stream: errors, level: 'error' },
      ])
      const logger = pino({ level: 'trace', timestamp: false, base: null }, ms as never)
      logger.trace('dropped')
      logger.debug('debug only')
      logger.child({ c: 1 }).error('both')
      return [debug.lines, errors.lines]
    }
    const expected = run(pino.multistream)
    expect(expected).toEqual([
      ['{"level":20,"msg":"debug only"}\n', '{"level":50,"c":1,"msg":"both"}\n'],
      ['{"level":50,"c":1,"msg":"both"}\n'],
    ])
    expect(run(multistream)).toEqual(expected)
  })
})

describe('add, remove, clone, flushSync, end, emit', () => {
  it('add keeps streams ordered and updates minLevel; remove by id', () => {
    const a = sink()
    const b = sink()
    const ms = multistream([{ level: 'error', stream: a }])
    expect(ms.minLevel).toBe(50)
    expect(ms.add({ level: 'trace', stream: b })).toBe(ms)
    expect(ms.minLevel).toBe(10)
    expect(ms.streams.map((s) => s.level)).toEqual([10, 50])
    logAt(ms, 20, 'd')
    expect(b.lines).toHaveLength(1)
    const id = ms.streams.find((s) => s.stream === b)?.id as number
    expect(ms.remove(id)).toBe(ms)
    expect(ms.minLevel).toBe(50)
    logAt(ms, 20, 'd')
    expect(b.lines).toHaveLength(1)
    expect(ms.lastId).toBe(2)
  })

  it('clone puts every stream at the given level and leaves the original alone', () => {
    const s = sink()
    const ms = multistream([
      { stream: s },
      { level: 'debug', stream: s },
      { level: 'trace', stream: s },
      { level: 'fatal', stream: s },
    ])
    const clone = ms.clone('info')
    expect(clone).not.toBe(ms)
    expect(clone.minLevel).toBe(30)
    expect(clone.streams.every((held, i) => held.level === 30 && held.stream === ms.streams[i]?.stream)).toBe(true)
    logAt(clone, 30, 'i')
    logAt(clone, 20, 'd')
    logAt(clone, 60, 'f')
    expect(s.lines).toHaveLength(8)
    expect(ms.streams.map((held) => held.level)).toEqual([10, 20, 30, 60])
    expect(clone.add({ level: 'info', stream: sink() }).streams).toHaveLength(5)
    expect(ms.clone(45).minLevel).toBe(45)
  })

  it('flushSync writes buffered data of every stream that has flushSync', async () => {
    const file = join(tmp, 'flush.log')
    const dest = new SonicBoom({ dest: file, sync: false, minLength: 4096 })
    await new Promise((resolve) => dest.once('ready', resolve))
    const ms = multistream([{ level: 'info', stream: dest }, { stream: sink() }])
    logAt(ms, 30, 'foo')
    logAt(ms, 30, 'bar')
    expect(readFileSync(file, 'utf8')).toBe('')
    expect(ms.flushSync()).toBeUndefined()
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3)
    dest.end()
  })

  it('end flushes and ends every stream', async () => {
    const received: string[] = []
    let flushed = 0
    const w = new Writable({
      write(chunk, _enc, cb) {
        received.push(String(chunk))
        cb()
      },
    })
    const withFlush = Object.assign(w, {
      flushSync() {
        flushed++
      },
    })
    const ms = multistream([{ stream: withFlush }, { level: 'trace', stream: sink() }])
    logAt(ms, 30, 'x')
    ms.end()
    await new Promise((resolve) => w.once('finish', resolve))
    expect(flushed).toBe(1)
    expect(received).toHaveLength(1)
  })

  it('emit re-emits on streams that are emitters', () => {
    const got: unknown[] = []
    const w = new Writable({ write: (_c, _e, cb) => cb() })
    w.on('message', (m) => got.push(m))
    const ms = multistream([{ stream: w }, { stream: sink() }])
    ms.emit('message', { code: 'PINO_CONFIG' })
    expect(got).toEqual([{ code: 'PINO_CONFIG' }])
  })
})

describe('through the logger', () => {
  it('routes real log calls by level, forwards metadata, and fatal flushes every stream', async () => {
    const { default: logx } = await import('logx')
    const low = sink()
    const high = sink()
    const flushed: string[] = []
    const meta = {
      [Symbol.for('logx.metadata')]: true,
      seen: [] as unknown[],
      write(this: {
        seen: unknown[]
        lastLevel?: unknown
        lastMsg?: unknown
        lastObj?: unknown
        lastLogger?: unknown
      }) {
        this.seen.push({
          level: this.lastLevel,
          msg: this.lastMsg,
          obj: this.lastObj,
          hasLogger: this.lastLogger !== undefined,
        })
      },
      flushSync() {
        flushed.push('meta')
      },
    }
    const ms = multistream([
      { level: 'debug', stream: low },
      { level: 'error', stream: high },
      { level: 'warn', stream: meta },
    ])
    const logger = logx({ level: 'debug' }, ms)
    logger.trace('dropped by the logger')
    logger.debug('d')
    logger.child({ svc: 'x' }).warn({ k: 1 }, 'w')
    logger.error('e')
    logger.fatal('f')
    expect(low.lines.map((l) => JSON.parse(l).msg)).toEqual(['d', 'w', 'e', 'f'])
    expect(high.lines.map((l) => JSON.parse(l).msg)).toEqual(['e', 'f'])
    expect(JSON.parse(low.lines[1] as string)).toMatchObject({ level: 40, svc: 'x', k: 1 })
    expect(meta.seen[0]).toEqual({ level: 40, msg: 'w', obj: { k: 1 }, hasLogger: true })
    expect(meta.seen.map((entry) => (entry as { level: number }).level)).toEqual([40, 50, 60])
    expect(flushed).toEqual(['meta'])
  })

  it('custom levels of the logger route through the same names', async () => {
    const { default: logx } = await import('logx')
    const notice = sink()
    const ms = multistream([{ level: 'notice', stream: notice }], { levels: { notice: 35 } })
    const logger = logx({ level: 'info', customLevels: { notice: 35 } }, ms) as unknown as Record<
      string,
      (msg: string) => void
    >
    logger.info?.('i')
    logger.notice?.('n')
    logger.error?.('e')
    expect(notice.lines.map((l) => JSON.parse(l).msg)).toEqual(['n', 'e'])
  })
})
