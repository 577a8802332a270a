// Inside the worker, several targets share one incoming byte stream. The router cuts it into lines,
// reads each line's level and hands the line to a multistream, which applies the per-target levels.
// Lines come from the logger, so `{"level":N,` is almost always the prefix: read the digits and
// parse JSON only when that shortcut does not apply.

import { Writable } from 'node:stream'
import { defaultStreamLevels, multistream, type DestinationStream, type MultiStreamRes } from './multistream.js'

export interface RouteStream {
  stream: DestinationStream &
    Partial<NodeJS.EventEmitter> & { writableNeedDrain?: boolean; closed?: boolean; destroyed?: boolean }
  level?: number
}

const LEVEL_PREFIX = '{"level":'
// A line whose level cannot be read is not dropped: it goes to every target except silent ones.
const UNKNOWN_LEVEL = Number.MAX_VALUE

export function lineLevel(line: string, levels: Readonly<Record<string, number>>): number {
  if (line.startsWith(LEVEL_PREFIX)) {
    let value = 0
    let index = LEVEL_PREFIX.length
    for (; index < line.length; index++) {
      const code = line.charCodeAt(index)
      if (code < 48 || code > 57) break
      value = value * 10 + (code - 48)
    }
    const next = line[index]
    if (index > LEVEL_PREFIX.length && (next === ',' || next === '}')) return value
  }
  try {
    const level = (JSON.parse(line) as { level?: unknown } | null)?.level
    if (typeof level === 'number') return level
    if (typeof level === 'string' && Object.hasOwn(levels, level)) return levels[level] as number
  } catch {
    // Not JSON: fall through.
  }
  return UNKNOWN_LEVEL
}

export class LineRouter extends Writable {
  readonly #routes: readonly RouteStream[]
  readonly #multi: MultiStreamRes
  readonly #levels: Readonly<Record<string, number>>
  #rest = ''

  constructor(routes: readonly RouteStream[], levels: Record<string, number> | undefined, dedupe: boolean) {
    super({ decodeStrings: false, autoDestroy: true })
    this.#routes = routes
    this.#multi = multistream(
      routes.map(({ stream, level }) => (level === undefined ? { stream } : { stream, level })),
      { levels: levels ?? {}, dedupe },
    )
    this.#levels = { ...defaultStreamLevels, ...levels }
    for (const { stream } of routes) {
      stream.on?.('error', (err: Error) => this.destroy(err))
    }
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const text = this.#rest + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'))
    let start = 0
    let newline = text.indexOf('\n')
    try {
      while (newline !== -1) {
        this.#route(text.slice(start, newline + 1))
        start = newline + 1
        newline = text.indexOf('\n', start)
      }
    } catch (err) {
      callback(err as Error)
      return
    }
    this.#rest = start === 0 ? text : text.slice(start)
    this.#afterDrain(callback)
  }

  override _final(callback: (error?: Error | null) => void): void {
    try {
      if (this.#rest.length > 0) this.#route(this.#rest + '\n')
      this.#rest = ''
    } catch (err) {
      callback(err as Error)
      return
    }
    const open = this.#routes.filter(({ stream }) => stream.closed !== true && stream.destroyed !== true)
    let pending = open.length
    if (pending === 0) {
      callback()
      return
    }
    for (const { stream } of open) {
      // thread-stream treats 'close' as "everything is out": wait for each target's own close.
      stream.once?.('close', () => {
        if (--pending === 0) callback()
      })
      stream.end?.()
    }
  }

  /** thread-stream's flush(cb) asks the destination to flush: pass that on to every target. */
  flush(callback: (error?: Error | null) => void): void {
    const flushable = this.#routes
      .map(({ stream }) => stream as { flush?: (cb?: (err?: Error | null) => void) => unknown })
      .filter((stream) => typeof stream.flush === 'function')
    let pending = flushable.length + 1
    let failed = false
    const done = (err?: Error | null): void => {
      if (failed) return
      if (err) {
        failed = true
        callback(err)
      } else if (--pending === 0) {
        callback()
      }
    }
    for (const stream of flushable) {
      try {
        const flush = stream.flush as (cb?: (err?: Error | null) => void) => unknown
        // A flush() without a callback parameter is synchronous or returns a promise.
        if (flush.length === 0) Promise.resolve(flush.call(stream)).then(() => done(), done)
        else flush.call(stream, done)
      } catch (err) {
        done(err as Error)
      }
    }
    done()
  }

  #route(line: string): void {
    if (line.length <= 1 || line === '\r\n') return
    this.#multi.lastLevel = lineLevel(line, this.#levels)
    this.#multi.write(line)
  }

  // Hold the worker's reads while a target is over its high-water mark.
  #afterDrain(callback: () => void): void {
    const waiting = this.#routes.filter(({ stream }) => stream.writableNeedDrain === true)
    if (waiting.length === 0) {
      callback()
      return
    }
    let pending = waiting.length
    for (const { stream } of waiting) {
      stream.once?.('drain', () => {
        if (--pending === 0) callback()
      })
    }
  }
}
