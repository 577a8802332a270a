// Time functions return the finished `,"time":…` fragment so the write path only concatenates.
// Every one reads the clock through `Date.now()`, looked up on each call, so a test that replaces
// it (`Date.now = () => fixed`, fake timers) sees its own time in every format.

export type TimeFn = () => string

// Lines of one millisecond share their fragment: the clock is still read on every call.
let epochMs = Number.NaN
let epochFragment = ''
export const epochTime: TimeFn = () => {
  const now = Date.now()
  if (now !== epochMs) {
    epochFragment = ',"time":' + now
    epochMs = now
  }
  return epochFragment
}
export const unixTime: TimeFn = () => ',"time":' + Math.round(Date.now() / 1000)
export const nullTime: TimeFn = () => ''

// The ISO formats change only their fraction within a second: `,"time":"2026-11-25T10:00:00.` is
// built once per second (toISOString is most of the cost of a line's time otherwise).
let cachedSecond = Number.NaN
let cachedPrefix = ''

function isoPrefix(second: number): string {
  if (second !== cachedSecond) {
    // Cut before the milliseconds ('000Z'), not at a fixed width: past year 9999 (a test clock can
    // get there) the year takes six digits and a sign.
    cachedPrefix = ',"time":"' + new Date(second * 1000).toISOString().slice(0, -4)
    cachedSecond = second
  }
  return cachedPrefix
}

function padded(value: number, width: number): string {
  const digits = String(value)
  return digits.length >= width ? digits : '000000000'.slice(0, width - digits.length) + digits
}

export const isoTime: TimeFn = () => {
  const now = Math.trunc(Date.now())
  // Before 1970 (only a replaced clock gets there) the fraction arithmetic below does not hold.
  if (!(now >= 0)) return ',"time":"' + new Date(now).toISOString() + '"'
  const second = Math.floor(now / 1000)
  return isoPrefix(second) + padded(now - second * 1000, 3) + 'Z"'
}

// isoTimeNano, as pino's: the wall clock read once, then advanced by the monotonic clock, so that
// lines within one millisecond keep their order. Seconds and nanoseconds are kept apart (both exact
// in a double) rather than as one BigInt.
const realDateNow = Date.now
const startMs = Date.now()
const startSecond = Math.floor(startMs / 1000)
const startNanos = (startMs - startSecond * 1000) * 1e6
const startHrtime = process.hrtime()

/** ISO 8601 in UTC with nanoseconds: `,"time":"2026-11-25T10:00:00.123456789Z"`. */
export const isoTimeNano: TimeFn = () => {
  if (Date.now !== realDateNow) {
    // A replaced clock is what the test wants to see, to the millisecond.
    const now = Math.trunc(Date.now())
    if (!(now >= 0)) return ',"time":"' + new Date(now).toISOString().slice(0, -1) + '000000Z"'
    const second = Math.floor(now / 1000)
    return isoPrefix(second) + padded((now - second * 1000) * 1e6, 9) + 'Z"'
  }
  const [elapsedSeconds, elapsedNanos] = process.hrtime(startHrtime)
  const nanos = startNanos + elapsedNanos
  const carry = nanos >= 1e9 ? 1 : 0
  return isoPrefix(startSecond + elapsedSeconds + carry) + padded(nanos - carry * 1e9, 9) + 'Z"'
}

export const stdTimeFunctions = { epochTime, unixTime, nullTime, isoTime, isoTimeNano }
