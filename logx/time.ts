// Time functions return the finished `,"time":…` fragment so the write path only concatenates.
// Every one but isoTimeNano reads the clock through `Date.now()`, looked up on each call, so a test
// that replaces it (`Date.now = () => fixed`, fake timers) sees its own time.

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

// isoTimeNano, as pino 10's: the wall clock read once, at load, then advanced by the monotonic
// clock, so that lines within one millisecond keep their order. A replaced Date.now is not
// followed (pino's is not either). Seconds and nanoseconds are kept apart, both exact in a double.
const startMs = Date.now()
const startHrtime = process.hrtime.bigint()

/** ISO 8601 in UTC with nanoseconds: `,"time":"2026-11-25T10:00:00.123456789Z"`. */
export const isoTimeNano: TimeFn = () => {
  const elapsed = process.hrtime.bigint() - startHrtime
  const elapsedSeconds = Number(elapsed / 1_000_000_000n)
  const nanos = (startMs % 1000) * 1e6 + Number(elapsed % 1_000_000_000n)
  const carry = nanos >= 1e9 ? 1 : 0
  return isoPrefix(Math.floor(startMs / 1000) + elapsedSeconds + carry) + padded(nanos - carry * 1e9, 9) + 'Z"'
}

export const stdTimeFunctions = { epochTime, unixTime, nullTime, isoTime, isoTimeNano }
