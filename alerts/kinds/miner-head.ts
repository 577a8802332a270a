// The head of a plain-text line no known layout matched (alerts/text-head.ts read it whole): the
// fields a log writer puts before the message, judged by what they look like, not by any format.
// Rules, in order, each skipping one field with the blanks after it, while the line lasts:
//  1. A field holding a digit and no lower-case run of three letters: a timestamp or date in any
//     shape (`2005.06.03`, `15:42:50.675872`, `1117838570`, `[10/Oct/2000:13:55:36`), a pid, a
//     host or node name with numbers (`R02-M1-N0`, `dn228`), a `-` placeholder.
//  2. A month or weekday name (`Jun`, `Tue`) before a field of rule 1.
//  3. A lone `-` or a field in brackets holding a digit (`[2915]`, `[12:01:01]`).
// The message starts at the first field none of these take; a line all head is its own message.
const MONTHS_AND_DAYS = new Set(
  'jan feb mar apr may jun jul aug sep oct nov dec mon tue wed thu fri sat sun'.split(' '),
)
const MAX_HEAD_FIELDS = 12

function isHeadField(line: string, at: number, end: number, nextAt: number, nextEnd: number): boolean {
  if (end - at === 1 && line.charCodeAt(at) === 45 /* - */) return true
  // Month and day names are three letters: no string is cut out for any other field.
  if (end - at === 3 && MONTHS_AND_DAYS.has(line.slice(at, end).toLowerCase())) return hasDigit(line, nextAt, nextEnd)
  let digit = false
  let lowerRun = 0
  for (let i = at; i < end; i++) {
    const c = line.charCodeAt(i)
    if (c >= 48 && c <= 57) digit = true
    if (c >= 97 && c <= 122) {
      if (++lowerRun >= 3) return false
    } else lowerRun = 0
  }
  return digit
}

function hasDigit(line: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = line.charCodeAt(i)
    if (c >= 48 && c <= 57) return true
  }
  return false
}

/** Where the message of a line with an unknown head starts (0: no head found). */
export function headEnd(line: string): number {
  let at = 0
  for (let n = 0; n < MAX_HEAD_FIELDS; n++) {
    while (at < line.length && line.charCodeAt(at) <= 32) at++
    const end = fieldEnd(line, at)
    if (end === at) break
    const nextAt = skipBlanks(line, end)
    if (!isHeadField(line, at, end, nextAt, fieldEnd(line, nextAt))) break
    at = end
  }
  while (at < line.length && line.charCodeAt(at) <= 32) at++
  return at >= line.length ? 0 : at
}

function skipBlanks(line: string, at: number): number {
  let i = at
  while (i < line.length && line.charCodeAt(i) <= 32) i++
  return i
}

function fieldEnd(line: string, at: number): number {
  let i = at
  while (i < line.length && line.charCodeAt(i) > 32) i++
  return i
}
