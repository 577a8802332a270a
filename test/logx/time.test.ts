// The standard time functions, side by side with pino's: the same fragments, the same shape for
// isoTimeNano, and a replaced Date.now (as pino's tests and many apps' tests do) seen by every one.
import { afterEach, describe, expect, it } from 'vitest'
import pino from 'pino'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const realNow = Date.now
const fixed = 1757512800123 // 2025-09-10T14:00:00.123Z

afterEach(() => {
  Date.now = realNow
})

describe('stdTimeFunctions', () => {
  it('has every function pino has', () => {
    expect(Object.keys(logx.stdTimeFunctions).sort()).toEqual(Object.keys(pino.stdTimeFunctions).sort())
  })

  it("epochTime, unixTime, isoTime and nullTime give pino's fragments under a replaced Date.now", () => {
    Date.now = () => fixed
    for (const name of ['epochTime', 'unixTime', 'isoTime', 'nullTime'] as const) {
      expect(logx.stdTimeFunctions[name](), name).toBe(pino.stdTimeFunctions[name]())
    }
    expect(logx.stdTimeFunctions.isoTime()).toBe(',"time":"2025-09-10T14:00:00.123Z"')
  })

  it('epochTime reads the clock on every call, also within one millisecond and backwards', () => {
    const readings = [fixed, fixed, fixed + 1, fixed, fixed - 5000, 0]
    let calls = 0
    Date.now = () => readings[calls++]!
    const fragments = readings.map(() => logx.stdTimeFunctions.epochTime())
    expect(calls).toBe(readings.length)
    expect(fragments).toEqual(readings.map((ms) => ',"time":' + ms))
  })

  it('isoTime is exact at second, minute, day and year boundaries, backwards, before 1970 and past 9999', () => {
    // A test clock jumps anywhere; the once-per-second prefix must follow it both ways.
    const day = 86_400_000
    const instants = [
      0,
      999,
      1000,
      59_999,
      60_000,
      3_599_999,
      3_600_000,
      day - 1,
      day,
      day + 1, // epoch boundaries
      1767225599999,
      1767225600000,
      1767225599999, // across 2026-01-01 and back
      fixed,
      fixed - 1000,
      fixed + 1,
      fixed - 1, // backwards within and across a second
      -1,
      -1000,
      -1001,
      -day, // before 1970
      253402300799999,
      253402300800000,
      8.64e15,
      -8.64e15, // past 9999-12-31, the extremes
      1500.7, // a fractional clock: Date truncates
    ]
    for (const instant of instants) {
      Date.now = () => instant
      const expected = ',"time":"' + new Date(instant).toISOString() + '"'
      expect(logx.stdTimeFunctions.isoTime(), String(instant)).toBe(expected)
      expect(logx.stdTimeFunctions.isoTime(), String(instant)).toBe(pino.stdTimeFunctions.isoTime())
    }
  })

  it('a logger with isoTime writes the replaced time, as pino does', () => {
    Date.now = () => fixed
    const lines = [pino, logx].map((factory) => {
      const sink = createSink()
      ;(factory as any)({ base: null, timestamp: (factory as any).stdTimeFunctions.isoTime }, sink).info(
        'at a fixed time',
      )
      return sink.lines[0]
    })
    expect(lines[1]).toBe(lines[0])
    expect(JSON.parse(lines[1]!).time).toBe('2025-09-10T14:00:00.123Z')
  })

  it("isoTimeNano has pino's shape: nine fractional digits, UTC, close to the wall clock", () => {
    const shape = /^,"time":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z"$/
    expect(pino.stdTimeFunctions.isoTimeNano()).toMatch(shape)
    const fragment = logx.stdTimeFunctions.isoTimeNano()
    expect(fragment).toMatch(shape)
    const written = Date.parse(fragment.slice(9, -1))
    // The monotonic clock drifts from the wall clock only by what NTP corrected since start-up.
    expect(Math.abs(written - Date.now())).toBeLessThan(5_000)
  })

  it('isoTimeNano never goes backwards from one call to the next', () => {
    let previous = ''
    for (let i = 0; i < 10_000; i++) {
      const current = logx.stdTimeFunctions.isoTimeNano()
      // Fixed-width ISO strings of one year compare in time order.
      expect(current >= previous).toBe(true)
      previous = current
    }
  })

  it("isoTimeNano is pino 10's: the clock at load advanced by the monotonic clock, not Date.now", () => {
    const real = process.hrtime.bigint
    const now = real()
    try {
      process.hrtime.bigint = () => now
      const first = logx.stdTimeFunctions.isoTimeNano()
      process.hrtime.bigint = () => now + 1_000_001_500n
      const second = logx.stdTimeFunctions.isoTimeNano()
      const nanos = (fragment: string): bigint => {
        const [, iso, fraction] = /"time":"(.*)\.(\d{9})Z"$/.exec(fragment)!
        return BigInt(Date.parse(iso + 'Z')) * 1_000_000n + BigInt(fraction!)
      }
      expect(nanos(second) - nanos(first)).toBe(1_000_001_500n)
      Date.now = () => fixed
      expect(logx.stdTimeFunctions.isoTimeNano().slice(9, 13)).toBe(String(new Date().getUTCFullYear()))
    } finally {
      process.hrtime.bigint = real
    }
  })
})
