// Fan one logger out to several destinations, each with its own minimum level.
// The logger tells us the level of each line through the metadata protocol (`lastLevel`),
// so routing is a numeric comparison: no line is parsed here.

import { LogxError, LogxErrorCodes } from './errors.js'
import { needsMetadataGsym } from './symbols.js'
import { DEFAULT_LEVELS } from './levels.js'

// Targets written for pino (pino-abstract-transport streams) look for pino's symbol.
const pinoMetadataSym = Symbol.for('pino.metadata')

export type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | (string & {})

/** Anything with a `write(line)` method. */
export interface DestinationStream {
  write(msg: string): unknown
  flushSync?: () => void
  end?: () => void
  emit?: (event: string | symbol, ...args: unknown[]) => unknown
}

export interface StreamEntry {
  stream: DestinationStream
  level?: Level | number
  /** Takes precedence over `level` when both are given. */
  levelVal?: number
}

/** How a held stream is stored: its level is resolved to a number once, at `add`. */
export interface HeldStream {
  stream: DestinationStream
  level: number
  id: number
}

export interface MultiStreamOptions {
  /** Custom level names and values, e.g. `{ notice: 35 }`; added to the built-in ones. */
  levels?: Record<string, number>
  /** When true a line goes only to the streams with the highest level that accepts it. */
  dedupe?: boolean
}

/** The built-in levels plus silent, for matching level names given to streams and targets. */
export const defaultStreamLevels: Readonly<Record<string, number>> = Object.freeze({
  ...DEFAULT_LEVELS,
  silent: Infinity,
})

const DEFAULT_ENTRY_LEVEL = 30

interface Metadata {
  lastLevel?: number | string
  lastMsg?: unknown
  lastObj?: unknown
  lastTime?: unknown
  lastLogger?: unknown
}

export class MultiStreamRes implements Metadata {
  readonly [needsMetadataGsym] = true
  // pino's flag too: a pino logger (the one fastify or pino-http make themselves) sets lastLevel
  // only on streams that carry it, and a line without a level would reach no stream.
  readonly [pinoMetadataSym] = true
  streams: HeldStream[] = []
  minLevel = 0
  lastId = 0
  lastLevel?: number | string
  lastMsg?: unknown
  lastObj?: unknown
  lastTime?: unknown
  lastLogger?: unknown

  readonly #levels: Record<string, number>
  readonly #dedupe: boolean

  constructor(levels: Record<string, number>, dedupe: boolean) {
    this.#levels = levels
    this.#dedupe = dedupe
  }

  /** Writes `data` to every held stream whose level accepts `this.lastLevel`. */
  write(data: string): void {
    const level = this.#lineLevel()
    const streams = this.streams
    let failure: unknown
    let failed = false

    if (this.#dedupe) {
      // Highest level first; stop once we pass the band of streams that took the line.
      let taken: number | undefined
      for (let i = streams.length - 1; i >= 0; i--) {
        const held = streams[i] as HeldStream
        if (held.level > level) continue
        if (taken !== undefined && held.level !== taken) break
        taken = held.level
        try {
          this.#deliver(held.stream, data, level)
        } catch (err) {
          if (!failed) failure = err
          failed = true
        }
      }
    } else {
      // Sorted ascending, so the first stream above the line's level ends the loop.
      for (let i = 0; i < streams.length; i++) {
        const held = streams[i] as HeldStream
        if (held.level > level) break
        try {
          this.#deliver(held.stream, data, level)
        } catch (err) {
          if (!failed) failure = err
          failed = true
        }
      }
    }
    // One broken stream must not starve the others; the caller still learns about it.
    if (failed) throw failure
  }

  /** Adds a stream (or a `{ stream, level }` entry); keeps the list sorted by level. */
  add(dest: StreamEntry | DestinationStream | null | undefined): this {
    if (dest === null || dest === undefined) return this
    const stream = entryStream(dest)
    const level = this.#entryLevel(dest)
    this.lastId += 1
    this.streams.push({ stream, level, id: this.lastId })
    // Array#sort is stable: streams of equal level keep the order they were added in.
    this.streams.sort(byLevel)
    this.minLevel = (this.streams[0] as HeldStream).level
    return this
  }

  /** Removes the stream that `add` gave `id` to. */
  remove(id: number): this {
    const index = this.streams.findIndex((held) => held.id === id)
    if (index >= 0) {
      this.streams.splice(index, 1)
      this.minLevel = this.streams[0]?.level ?? 0
    }
    return this
  }

  /** Calls `flushSync` on every held stream that has one. */
  flushSync(): undefined {
    for (const { stream } of this.streams) {
      if (typeof stream.flushSync === 'function') stream.flushSync()
    }
    return undefined
  }

  /** Flushes and ends every held stream. */
  end(): void {
    for (const { stream } of this.streams) {
      if (typeof stream.flushSync === 'function') stream.flushSync()
      if (typeof stream.end === 'function') stream.end()
    }
  }

  /** Re-emits an event (e.g. the logger's config message) on every held stream. */
  emit(event: string | symbol, ...args: unknown[]): void {
    for (const { stream } of this.streams) {
      if (typeof stream.emit === 'function') stream.emit(event, ...args)
    }
  }

  /** A new multistream over the same streams, all at `level`. */
  clone(level: Level | number): MultiStreamRes {
    const copy = new MultiStreamRes(this.#levels, this.#dedupe)
    const value = this.#resolveLevel(level, 'level')
    for (const { stream } of this.streams) {
      copy.lastId += 1
      copy.streams.push({ stream, level: value, id: copy.lastId })
    }
    copy.minLevel = value
    return copy
  }

  #deliver(stream: DestinationStream, data: string, level: number): void {
    const target = stream as DestinationStream & Metadata & Record<symbol, unknown>
    if (target[needsMetadataGsym] === true || target[pinoMetadataSym] === true) {
      target.lastLevel = level
      target.lastMsg = this.lastMsg
      target.lastObj = this.lastObj
      target.lastTime = this.lastTime
      target.lastLogger = this.lastLogger
    }
    stream.write(data)
  }

  #lineLevel(): number {
    const level = this.lastLevel
    if (typeof level === 'number') return level
    // A relay (e.g. a worker that parsed the line) may hand us the label instead of the number.
    if (typeof level === 'string') return this.#levels[level] ?? 0
    return 0
  }

  #entryLevel(dest: StreamEntry | DestinationStream): number {
    const entry = dest as StreamEntry
    if (typeof entry.levelVal === 'number') return entry.levelVal
    if (entry.level === undefined || entry.level === null) return DEFAULT_ENTRY_LEVEL
    return this.#resolveLevel(entry.level, 'streams[].level')
  }

  #resolveLevel(level: unknown, path: string): number {
    if (typeof level === 'number' && !Number.isNaN(level)) return level
    if (typeof level === 'string' && Object.hasOwn(this.#levels, level)) return this.#levels[level] as number
    throw new LogxError(
      LogxErrorCodes.INVALID_STREAM,
      `multistream: unknown level ${JSON.stringify(level)}; known levels: ${Object.keys(this.#levels).join(', ')}`,
      path,
    )
  }
}

function byLevel(a: HeldStream, b: HeldStream): number {
  return a.level - b.level
}

function entryStream(dest: StreamEntry | DestinationStream): DestinationStream {
  const candidate = dest as Partial<StreamEntry> & Partial<DestinationStream>
  if (typeof candidate.write === 'function') return dest as DestinationStream
  const inner = candidate.stream
  if (inner !== null && typeof inner === 'object' && typeof inner.write === 'function') return inner
  throw new LogxError(
    LogxErrorCodes.INVALID_STREAM,
    'multistream: each entry must be a stream with a write() method or a { stream, level } entry',
    'streams[]',
  )
}

/**
 * Creates a stream that writes each line to every held stream whose level accepts it.
 * The logger's `level` must be at or below the lowest stream level, or lines never arrive.
 */
export function multistream(
  streams?: ReadonlyArray<StreamEntry | DestinationStream> | StreamEntry | DestinationStream | null,
  options: MultiStreamOptions = {},
): MultiStreamRes {
  const levels: Record<string, number> = { ...defaultStreamLevels }
  if (options.levels !== null && typeof options.levels === 'object') {
    for (const [name, value] of Object.entries(options.levels)) {
      if (typeof value !== 'number') {
        throw new LogxError(
          LogxErrorCodes.INVALID_STREAM,
          `multistream: level "${name}" must be a number`,
          `levels.${name}`,
        )
      }
      levels[name] = value
    }
  }
  const res = new MultiStreamRes(levels, options.dedupe === true)
  if (Array.isArray(streams)) {
    // Array.isArray narrows a readonly array to any[]: the entries are the declared ones.
    for (const entry of streams as ReadonlyArray<StreamEntry | DestinationStream>) res.add(entry)
  } else if (streams !== null && streams !== undefined) {
    res.add(streams as StreamEntry | DestinationStream)
  }
  return res
}
