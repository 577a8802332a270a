// Chunks from the worker hold any number of lines, the last possibly cut; this yields whole lines
// (bytes, without the newline) and keeps the rest for the next chunk. A line longer than
// `maxLineBytes` is dropped (counted), so one runaway line cannot eat the worker's memory.

export interface LineSplitter {
  push(chunk: Buffer | string, onLine: (buf: Buffer, start: number, end: number) => void): void
  /** The unterminated tail at end of input, as a line. */
  end(onLine: (buf: Buffer, start: number, end: number) => void): void
  readonly dropped: number
}

export function createLineSplitter(maxLineBytes = 1024 * 1024): LineSplitter {
  let carry: Buffer | undefined
  let skipping = false
  let dropped = 0

  return {
    get dropped() {
      return dropped
    },
    push(chunk, onLine) {
      let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      if (carry !== undefined) {
        buf = Buffer.concat([carry, buf])
        carry = undefined
      }
      let start = 0
      for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
        if (skipping) skipping = false
        else if (nl > start) onLine(buf, start, nl)
        start = nl + 1
      }
      if (start < buf.length && !skipping) {
        if (buf.length - start > maxLineBytes) {
          skipping = true
          dropped++
        } else {
          carry = buf.subarray(start)
        }
      }
    },
    end(onLine) {
      if (carry !== undefined && carry.length > 0) onLine(carry, 0, carry.length)
      carry = undefined
    },
  }
}
