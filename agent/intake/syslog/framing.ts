// Syslog over a stream (TCP, TLS): where one message ends and the next begins (RFC 6587). Pure: the
// connection hands in what it reads, this hands back whole frames. Rules, in order:
// 1. the framing is detected once per connection from its first byte: a digit 1-9 is octet counting
//    (`MSG-LEN SP MSG`, RFC 6587 3.4.1, what RFC 5425 TLS senders use), anything else is newline framing
//    (RFC 6587 3.4.2, each message ends at LF);
// 2. newline framing: a frame is the bytes up to LF; empty frames (a blank line, CRLF's lone CR) are
//    skipped;
// 3. octet counting: MSG-LEN is 1-9 digits then one space; a frame is the next MSG-LEN bytes. A length
//    that is not that (a letter, ten digits, no space) breaks the stream: there is no telling where the
//    next frame begins, so the framer stops (`broken`) and the connection is closed;
// 4. a frame longer than `maxFrameBytes` is cut to its first `maxFrameBytes` bytes (counted in `cut`)
//    and the rest of it is skipped as it arrives, so a connection holds at most `maxFrameBytes` of an
//    unfinished frame whatever the sender does;
// 5. what is left at the end of a connection (a last line without LF) is one more frame when there is
//    any (`finish`); an octet-counted frame cut short by the close is dropped (counted in `cut`);
// 6. a frame the framer's `keep` refuses (frame-filter.ts: below every rule) is counted in `dropped` and
//    never handed back: no Buffer view is made of it.

export interface FramerOutput {
  frames: Buffer[]
  /** Frames `keep` refused (rule 6) since the last push. */
  dropped: number
  /** Frames over the bound cut (rule 4) or cut short by the close (rule 5) since the last push. */
  cut: number
}

/** Whether the frame in `bytes[start, end)` is handed back (rule 6). */
export type FrameKeep = (bytes: Buffer, start: number, end: number) => boolean

const keepAll: FrameKeep = () => true

export type Framing = 'unknown' | 'newline' | 'octet-counting' | 'broken'

const LF = 10
const SPACE = 32
const MAX_LENGTH_DIGITS = 9

export class SyslogFramer {
  private framing: Framing = 'unknown'
  /** The unfinished frame's bytes seen so far (at most maxFrameBytes), or a length prefix being read. */
  private pending: Buffer = Buffer.alloc(0)
  /** Octet counting: bytes of the current frame still to come (taken or skipped). */
  private remaining = 0
  /** Octet counting: the current frame's MSG-LEN. */
  private frameLength = 0
  /** Newline framing: skipping the rest of a frame that was cut (rule 4). */
  private skippingLine = false

  constructor(
    private readonly maxFrameBytes: number,
    private readonly keep: FrameKeep = keepAll,
  ) {}

  get mode(): Framing {
    return this.framing
  }

  /** Bytes read from the connection -> the frames they finish (rules 1-4). */
  push(chunk: Buffer): FramerOutput {
    const out: FramerOutput = { frames: [], dropped: 0, cut: 0 }
    if (chunk.length === 0 || this.framing === 'broken') return out
    if (this.framing === 'unknown') {
      const first = chunk[0] as number
      this.framing = first >= 49 && first <= 57 ? 'octet-counting' : 'newline'
    }
    if (this.framing === 'newline') this.pushLines(chunk, out)
    else this.pushCounted(chunk, out)
    return out
  }

  /** The connection ended: its last unfinished frame (rule 5). */
  finish(): FramerOutput {
    const out: FramerOutput = { frames: [], dropped: 0, cut: 0 }
    if (this.framing === 'newline' && this.pending.length > 0 && !this.skippingLine) this.emit(this.pending, out)
    if (this.framing === 'octet-counting' && this.remaining > 0) out.cut++
    this.pending = Buffer.alloc(0)
    this.remaining = 0
    return out
  }

  private pushLines(chunk: Buffer, out: FramerOutput): void {
    let start = 0
    while (start < chunk.length) {
      const end = chunk.indexOf(LF, start)
      if (end === -1) {
        this.keepPartialLine(chunk.subarray(start), out)
        return
      }
      if (this.skippingLine) this.skippingLine = false
      else if (this.pending.length > 0) this.endLine(chunk.subarray(start, end), out)
      else this.endWholeLine(chunk, start, end, out)
      start = end + 1
    }
  }

  /** A line that began in an earlier chunk: its held bytes and `tail`. */
  private endLine(tail: Buffer, out: FramerOutput): void {
    const line = Buffer.concat([this.pending, tail])
    this.pending = Buffer.alloc(0)
    this.endWholeLine(line, 0, line.length, out)
  }

  /** A line wholly in `bytes[start, end)`: the common case, looked at (rule 6) before any view is made. */
  private endWholeLine(bytes: Buffer, start: number, end: number, out: FramerOutput): void {
    const length = end - start
    if (length > this.maxFrameBytes) {
      out.cut++
      this.emit(bytes.subarray(start, start + this.maxFrameBytes), out)
    } else if (length > 1 || (length === 1 && bytes[start] !== 13)) {
      if (this.keep(bytes, start, end)) out.frames.push(bytes.subarray(start, end))
      else out.dropped++
    }
  }

  /** Rule 6 for a frame already in a Buffer of its own. */
  private emit(frame: Buffer, out: FramerOutput): void {
    if (this.keep(frame, 0, frame.length)) out.frames.push(frame)
    else out.dropped++
  }

  private keepPartialLine(part: Buffer, out: FramerOutput): void {
    if (this.skippingLine) return
    const held = this.pending.length + part.length
    if (held <= this.maxFrameBytes) {
      this.pending = Buffer.concat([this.pending, part])
      return
    }
    out.cut++
    this.emit(Buffer.concat([this.pending, part]).subarray(0, this.maxFrameBytes), out)
    this.pending = Buffer.alloc(0)
    this.skippingLine = true
  }

  private pushCounted(chunk: Buffer, out: FramerOutput): void {
    let at = 0
    while (at < chunk.length && this.framing === 'octet-counting') {
      if (this.remaining === 0) at = this.readLength(chunk, at)
      else at = this.readBody(chunk, at, out)
    }
  }

  /** Rule 3: the digits of MSG-LEN from `at`; where reading goes on. */
  private readLength(chunk: Buffer, at: number): number {
    const space = chunk.indexOf(SPACE, at)
    const end = space === -1 ? chunk.length : space
    const prefix = Buffer.concat([this.pending, chunk.subarray(at, end)])
    const valid = prefix.length <= MAX_LENGTH_DIGITS && prefix.every((byte) => byte >= 48 && byte <= 57)
    if (!valid || (space !== -1 && (prefix.length === 0 || prefix[0] === 48))) {
      this.framing = 'broken'
      return chunk.length
    }
    if (space === -1) {
      this.pending = prefix
      return chunk.length
    }
    this.pending = Buffer.alloc(0)
    this.remaining = Number(prefix.toString('latin1'))
    this.frameLength = this.remaining
    return space + 1
  }

  /** Rules 3-4: the frame's bytes from `at`, up to its length; over the bound they are skipped. */
  private readBody(chunk: Buffer, at: number, out: FramerOutput): number {
    const take = Math.min(this.remaining, chunk.length - at)
    const room = this.maxFrameBytes - this.pending.length
    const whole = this.remaining === take
    if (whole && this.pending.length === 0 && take <= this.maxFrameBytes) {
      if (this.keep(chunk, at, at + take)) out.frames.push(chunk.subarray(at, at + take))
      else out.dropped++
    } else {
      if (room > 0) this.pending = Buffer.concat([this.pending, chunk.subarray(at, at + Math.min(take, room))])
      if (whole) this.endCounted(out)
    }
    this.remaining -= take
    return at + take
  }

  private endCounted(out: FramerOutput): void {
    this.emit(this.pending, out)
    this.pending = Buffer.alloc(0)
    if (this.frameLength > this.maxFrameBytes) out.cut++
  }
}
