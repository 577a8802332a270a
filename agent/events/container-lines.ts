// Container runtimes wrap each line an app writes, and split long ones:
//   docker (json-file): {"log":"<text>\n","stream":"stderr","time":"2024-05-01T10:00:00.123456789Z"}
//     A line longer than 16 KiB is written as several entries; every one but the last has a
//     "log" without the final "\n". (A last line written without a newline looks the same: it is
//     held until flush().)
//   cri (containerd, CRI-O): <RFC 3339 time> <stdout|stderr> <P|F>[:<more tags>] <text>
//     P parts come before the F part that ends the line; the text may be empty.
// The decoder turns the file's raw lines into the app's lines. Parts are joined per stream: the
// runtime copies stdout and stderr concurrently, so a stderr line may sit between two parts of a
// stdout one. A raw line in neither format (a hand-written line, a file cut mid-entry) is passed
// on as it is, flagged malformed, and leaves the parts held for the streams untouched.
//
// Costs: a docker line in Docker's own shape is a scan of its bytes and one decode of its text (its
// string literal parsed only when it holds escapes), any other JSON object one JSON.parse; a CRI
// line is a scan of its first ~45 bytes and one decode of its text. Parts are the only copies (the
// raw line may be a view of a read buffer the tailer reuses once the batch is committed), and the
// fields object of a stream is built once per file, shared by its lines (records are never
// mutated after parsing).
import type { AlertLine } from '../../alerts'
import { containerPathFields } from './kubernetes-path'

/** Every record key a decoder adds (`fields`): what a kept line must keep beside its text (incidents/kept-line.ts). */
export const CONTAINER_FIELD_KEYS = ['stream', 'kubernetes', 'container_id'] as const

export interface ContainerLine {
  /** The logical line's text (partials joined, the trailing newline of docker's "log" removed). */
  text: string
  /**
   * Merged into the AlertLine's record where the record has no such key: `stream` ('stdout'|'stderr'),
   * and `kubernetes` ({ namespace, pod, pod_uid?, container, container_id? }) when the path says
   * (`container_id` for a file under /var/lib/docker/containers/).
   */
  fields: Record<string, unknown>
  /** The raw line was not in the format (it is still passed on, as text). */
  malformed: boolean
}

export interface ContainerDecoder {
  /**
   * One raw line of the file, without its newline: the whole logical line once its last part is read, else undefined.
   */
  push(raw: Buffer): ContainerLine | undefined
  /** A partial line is held: a commit must stop before the line that began it. */
  readonly pending: boolean
  /**
   * The lines held, as far as they got (oldest first), and forgets them: for a file that ends,
   * or has been quiet for long, on a part that will never be continued.
   */
  flush(): ContainerLine[]
}

const SPACE = 0x20
const COLON = 0x3a
const NEWLINE = '\n'

/** One stream's line being joined from parts; its text is capped at `maxBytes`. */
interface HeldLine {
  readonly parts: Buffer[]
  bytes: number
  readonly fields: Record<string, unknown>
}

export function createContainerDecoder(
  format: 'docker' | 'cri',
  path: string | undefined,
  maxLineBytes: number,
): ContainerDecoder {
  const pathFields = Object.freeze(containerPathFields(path))
  const stdout = Object.freeze({ ...pathFields, stream: 'stdout' })
  const stderr = Object.freeze({ ...pathFields, stream: 'stderr' })
  const fieldsOf = (stream: string): Record<string, unknown> =>
    stream === 'stdout' ? stdout : stream === 'stderr' ? stderr : stream === '' ? pathFields : { ...pathFields, stream }
  /** By stream, in the order their first parts came. */
  const held = new Map<string, HeldLine>()

  const malformed = (raw: Buffer): ContainerLine => ({
    text: raw.toString('utf8'),
    fields: pathFields,
    malformed: true,
  })

  /** A part of `stream`'s line that the next part continues. */
  function hold(stream: string, part: Buffer): undefined {
    let line = held.get(stream)
    if (line === undefined) {
      line = { parts: [], bytes: 0, fields: fieldsOf(stream) }
      held.set(stream, line)
    }
    const room = maxLineBytes - line.bytes
    if (room > 0) {
      // A copy: `part` may be a view of a read buffer that is reused.
      const kept = Buffer.from(part.length <= room ? part : part.subarray(0, utf8Boundary(part, room)))
      line.parts.push(kept)
      line.bytes += kept.length
    }
    return undefined
  }

  /** `stream`'s line ends with `last`: the held parts joined with it, or `last` alone. */
  function complete(stream: string, last: Buffer | string): ContainerLine {
    const line = held.get(stream)
    if (line === undefined)
      return {
        text: typeof last === 'string' ? last : last.toString('utf8'),
        fields: fieldsOf(stream),
        malformed: false,
      }
    hold(stream, typeof last === 'string' ? Buffer.from(last, 'utf8') : last)
    held.delete(stream)
    return joined(line)
  }

  const pushDocker = (raw: Buffer): ContainerLine | undefined => {
    const entry = readDockerEntry(raw) ?? parseDockerEntry(raw)
    if (entry === undefined) return malformed(raw)
    return entry.ended ? complete(entry.stream, entry.text) : hold(entry.stream, Buffer.from(entry.text, 'utf8'))
  }

  const pushCri = (raw: Buffer): ContainerLine | undefined => {
    const head = parseCriHead(raw)
    if (head === undefined) return malformed(raw)
    const text = raw.subarray(head.textStart)
    return head.partial ? hold(head.stream, text) : complete(head.stream, text)
  }

  return {
    push: format === 'docker' ? pushDocker : pushCri,
    get pending() {
      return held.size > 0
    },
    flush() {
      const lines = [...held.values()].map(joined)
      held.clear()
      return lines
    },
  }
}

function joined(line: HeldLine): ContainerLine {
  // Decoded once, whole: a runtime splits at a byte count, which may fall inside a character.
  return { text: Buffer.concat(line.parts, line.bytes).toString('utf8'), fields: line.fields, malformed: false }
}

/** The most bytes of `bytes`, at most `max`, that end on a character boundary. */
function utf8Boundary(bytes: Buffer, max: number): number {
  let end = max
  // 10xxxxxx is a continuation byte: the character it belongs to began before it.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--
  return end
}

interface DockerEntry {
  /** The "log" value, without its final newline when it had one. */
  text: string
  /** It had one: this entry ends a line. */
  ended: boolean
  stream: string
}

const DOCKER_HEAD = Buffer.from('{"log":"')
const STREAM_KEY = Buffer.from(',"stream":"')
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * An entry in the shape Docker writes, `{"log":"…","stream":"stdout"|"stderr",…}`, read without
 * parsing its envelope: the text is decoded straight from the bytes when it holds no escape but its
 * final `\n` (plain-text apps), else only its string literal is parsed. Undefined for any other
 * shape: parseDockerEntry then decides.
 */
function readDockerEntry(raw: Buffer): DockerEntry | undefined {
  const start = DOCKER_HEAD.length
  // compare() throws on a range past the end: every range is checked against the length first.
  if (
    raw.length < start + 2 ||
    raw[raw.length - 1] !== 0x7d /* } */ ||
    raw.compare(DOCKER_HEAD, 0, start, 0, start) !== 0
  )
    return undefined
  // The closing quote is the first one after an even number of backslashes.
  let close = raw.indexOf(QUOTE, start)
  while (close !== -1) {
    let before = close - 1
    while (before >= start && raw[before] === BACKSLASH) before--
    if ((close - 1 - before) % 2 === 0) break
    close = raw.indexOf(QUOTE, close + 1)
  }
  if (close === -1) return undefined
  const at = close + 1 + STREAM_KEY.length
  if (at + 8 > raw.length || raw.compare(STREAM_KEY, 0, STREAM_KEY.length, close + 1, at) !== 0) return undefined
  const stream = streamAt(raw, at)
  if (stream === undefined || raw[at + 6] !== QUOTE || (raw[at + 7] !== 0x2c /* , */ && raw[at + 7] !== 0x7d))
    return undefined
  const escape = raw.indexOf(BACKSLASH, start)
  if (escape === -1 || escape > close) return { text: raw.toString('utf8', start, close), ended: false, stream }
  if (escape === close - 2 && raw[close - 1] === 0x6e /* n */)
    return { text: raw.toString('utf8', start, escape), ended: true, stream }
  let log: unknown
  try {
    log = JSON.parse(raw.toString('utf8', start - 1, close + 1))
  } catch {
    return undefined
  }
  return typeof log === 'string' ? withoutNewline(log, stream) : undefined
}

function withoutNewline(log: string, stream: string): DockerEntry {
  const ended = log.endsWith(NEWLINE)
  return { text: ended ? log.slice(0, -1) : log, ended, stream }
}

/** Any JSON object with a string "log" (other key orders, other streams). */
function parseDockerEntry(raw: Buffer): DockerEntry | undefined {
  if (raw[0] !== 0x7b /* { */) return undefined
  let entry: unknown
  try {
    entry = JSON.parse(raw.toString('utf8'))
  } catch {
    return undefined
  }
  if (typeof entry !== 'object' || entry === null) return undefined
  const { log, stream } = entry as { log?: unknown; stream?: unknown }
  if (typeof log !== 'string') return undefined
  return withoutNewline(log, typeof stream === 'string' ? stream : '')
}

interface CriHead {
  stream: 'stdout' | 'stderr'
  partial: boolean
  /** Where the text begins (the line's length when it is empty). */
  textStart: number
}

/** `<time> <stdout|stderr> <P|F>[:tags] <text>`, read byte by byte; undefined when the line is not that. */
export function parseCriHead(raw: Buffer): CriHead | undefined {
  // RFC 3339 with nanoseconds: 2024-05-01T10:00:00.123456789Z is 30 bytes, with an offset 35.
  const timeEnd = raw.indexOf(SPACE)
  if (timeEnd < 20 || timeEnd > 40 || !looksLikeTime(raw)) return undefined
  const at = timeEnd + 1
  const stream = streamAt(raw, at)
  if (stream === undefined || raw[at + 6] !== SPACE) return undefined
  const tag = raw[at + 7]
  if (tag !== 0x50 /* P */ && tag !== 0x46 /* F */) return undefined
  let end = at + 8
  // Later runtimes may add tags after the first, separated by ':'.
  if (raw[end] === COLON) {
    end = raw.indexOf(SPACE, end)
    if (end === -1) end = raw.length
  } else if (end < raw.length && raw[end] !== SPACE) return undefined
  return { stream, partial: tag === 0x50, textStart: Math.min(end + 1, raw.length) }
}

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39

function looksLikeTime(raw: Buffer): boolean {
  return (
    isDigit(raw[0]) &&
    isDigit(raw[1]) &&
    isDigit(raw[2]) &&
    isDigit(raw[3]) &&
    raw[4] === 0x2d &&
    raw[7] === 0x2d &&
    raw[10] === 0x54
  ) /* T */
}

/** 'stdout' or 'stderr' spelled at `at`, compared byte by byte (no string is made). */
function streamAt(raw: Buffer, at: number): 'stdout' | 'stderr' | undefined {
  if (raw[at] !== 0x73 || raw[at + 1] !== 0x74 || raw[at + 2] !== 0x64) return undefined // std
  const a = raw[at + 3]
  const b = raw[at + 4]
  const c = raw[at + 5]
  if (a === 0x6f && b === 0x75 && c === 0x74) return 'stdout'
  if (a === 0x65 && b === 0x72 && c === 0x72) return 'stderr'
  return undefined
}

/** The line with `fields` added to its record (keys the record already has are kept). */
export function withContainerFields(line: AlertLine, fields: Record<string, unknown>): AlertLine {
  let record: Record<string, unknown> | undefined
  for (const key of Object.keys(fields)) {
    if (Object.hasOwn(line.record, key)) continue
    // Spread keeps an own "__proto__" of a parsed record as data; a record is never mutated.
    record ??= { ...line.record }
    record[key] = fields[key]
  }
  return record === undefined ? line : { ...line, record }
}
