// Reads a JSON-lines file forward from a byte offset, a chunk at a time, so neither a long journal
// nor a large spill is ever held in memory whole. Only complete lines are returned: an unterminated
// tail (a torn write, or one still being made) stays unread.
import { closeSync, openSync, readSync } from 'node:fs'

const CHUNK = 64 * 1024

export interface LineReader {
  /** The next complete line (without its newline) and the offset just past it; undefined at the end for now. */
  next(): { line: string; end: number } | undefined
  /** Offset just past the last line returned. */
  readonly offset: number
  /** Bytes read past the last complete line: a torn tail, or a line still being written. */
  readonly tail: number
  /** Those bytes. */
  rest(): Buffer
  close(): void
}

export function openLineReader(path: string, offset = 0): LineReader {
  const fd = openSync(path, 'r')
  let consumed = offset
  let position = offset
  let pending: Buffer = Buffer.alloc(0)
  const chunk = Buffer.allocUnsafe(CHUNK)
  let closed = false

  return {
    get offset() {
      return consumed
    },
    get tail() {
      return pending.length
    },
    rest() {
      return pending
    },
    next() {
      for (;;) {
        const newline = pending.indexOf(0x0a)
        if (newline !== -1) {
          const line = pending.subarray(0, newline).toString('utf8')
          pending = pending.subarray(newline + 1)
          consumed += newline + 1
          return { line, end: consumed }
        }
        // Another look at the file: a writer may have appended since the last read.
        const read = readSync(fd, chunk, 0, CHUNK, position)
        if (read === 0) return undefined
        position += read
        pending =
          pending.length === 0
            ? Buffer.from(chunk.subarray(0, read))
            : Buffer.concat([pending, chunk.subarray(0, read)])
      }
    },
    close() {
      if (closed) return
      closed = true
      closeSync(fd)
    },
  }
}

/** Calls `fn` with every complete line of the file; a missing file has none. */
export function forEachLine(path: string, fn: (line: string) => void): void {
  let reader: LineReader
  try {
    reader = openLineReader(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  try {
    for (let next = reader.next(); next !== undefined; next = reader.next()) fn(next.line)
  } finally {
    reader.close()
  }
}
