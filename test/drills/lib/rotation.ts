// The rotation drill's tools: follow a growing --tap file without reading it whole each time, and
// check numbered streams (every number once, in order per stream).
import { closeSync, openSync, readSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'

/** Reads a file as it grows, handing each complete line to `onLine`. */
export interface FileFollower {
  /** Reads what was appended since the last call. */
  poll(): void
  close(): void
}

export function followFile(path: string, onLine: (line: string) => void): FileFollower {
  let fd: number | undefined
  let offset = 0
  let rest = ''
  const decoder = new StringDecoder('utf8')
  const buffer = Buffer.allocUnsafe(4 * 1024 * 1024)
  return {
    poll() {
      if (fd === undefined) {
        try {
          fd = openSync(path, 'r')
        } catch {
          return
        }
      }
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, offset)
        if (n === 0) return
        offset += n
        const text = rest + decoder.write(buffer.subarray(0, n))
        const lines = text.split('\n')
        rest = lines.pop() ?? ''
        for (const line of lines) if (line !== '') onLine(line)
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  }
}

/** Counts, per numbered stream, what arrived: each number once and ascending is the only good outcome. */
export interface SequenceCheck {
  see(stream: number, n: number): void
  /** Distinct numbers seen of a stream. */
  distinct(stream: number): number
  /** Against the numbers 1..totals[k] expected of each stream k. */
  result(totals: readonly number[]): {
    expected: number
    received: number
    lost: number
    duplicated: number
    outOfOrder: number
    firstProblems: string[]
  }
}

export function createSequenceCheck(): SequenceCheck {
  const counts = new Map<number, Uint8Array>()
  const distinct = new Map<number, number>()
  const highest = new Map<number, number>()
  let received = 0
  let duplicated = 0
  let outOfOrder = 0
  const problems: string[] = []
  const note = (text: string): void => {
    if (problems.length < 10) problems.push(text)
  }
  return {
    see(stream, n) {
      received++
      let seen = counts.get(stream) ?? new Uint8Array(1024)
      if (n >= seen.length) {
        const grown = new Uint8Array(Math.max(n + 1, seen.length * 2))
        grown.set(seen)
        seen = grown
      }
      counts.set(stream, seen)
      const times = seen[n] ?? 0
      seen[n] = Math.min(255, times + 1)
      if (times > 0) {
        duplicated++
        note(`file ${stream}: ${n} again`)
        return
      }
      distinct.set(stream, (distinct.get(stream) ?? 0) + 1)
      const top = highest.get(stream) ?? 0
      if (n < top) {
        outOfOrder++
        note(`file ${stream}: ${n} after ${top}`)
      } else highest.set(stream, n)
    },
    distinct: (stream) => distinct.get(stream) ?? 0,
    result(totals) {
      let expected = 0
      let lost = 0
      for (const [stream, total] of totals.entries()) {
        expected += total
        const seen = counts.get(stream)
        let missing = 0
        for (let n = 1; n <= total; n++) {
          if ((seen?.[n] ?? 0) === 0) {
            if (missing === 0) note(`file ${stream}: ${n} never arrived`)
            missing++
          }
        }
        lost += missing
      }
      return { expected, received, lost, duplicated, outOfOrder, firstProblems: problems }
    },
  }
}
