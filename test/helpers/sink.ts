import { Writable } from 'node:stream'

/** A destination that keeps every line it receives, as the logger wrote it. */
export interface Sink {
  write(line: string): boolean
  lines: string[]
  /** Every line parsed as JSON. */
  records(): Record<string, any>[]
  /** The last line parsed as JSON. */
  last(): Record<string, any>
}

export function createSink(): Sink {
  const lines: string[] = []
  return {
    lines,
    write(line: string) {
      lines.push(line)
      return true
    },
    records: () => lines.map((line) => JSON.parse(line)),
    last() {
      const line = lines[lines.length - 1]
      if (line === undefined) throw new Error('nothing was logged')
      return JSON.parse(line)
    },
  }
}

/** A real Writable stream (what pino also accepts) collecting what it receives. */
export function createWritableSink(): Writable & { lines: string[] } {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(chunk.toString())
      callback()
    },
  }) as Writable & { lines: string[] }
  stream.lines = lines
  return stream
}
