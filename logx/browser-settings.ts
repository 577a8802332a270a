// From the options to the settings a root logger and all its children share: the level table, one
// sink per level (a console method or a `browser.write` function), the time function, which
// serializers run, and whether calls are logged as objects. Decided once, not on each call.

import { logxError } from './browser-error.js'
import type { BrowserLoggerOptions, Levels, LogFn, Shared, Sink, TimeFn } from './browser-types.js'

export const builtinValues: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
}

export function levelsOf(values: Record<string, number>): Levels {
  const labels: Record<number, string> = {}
  for (const [label, value] of Object.entries(values)) labels[value] = label
  return { values, labels }
}

// Browser time functions return the value itself: there is no JSON line to splice it into.
export const stdTimeFunctions = {
  epochTime: (): number => Date.now(),
  unixTime: (): number => Math.round(Date.now() / 1000),
  nullTime: (): false => false,
  isoTime: (): string => new Date(Date.now()).toISOString(),
}

/** The method of a disabled level, and the sink of a level the console cannot show. */
export const noop: LogFn = () => {}

// The console has no `fatal`, and old consoles lack some methods: fall back to the nearest.
const consoleFallback: Readonly<Record<string, readonly string[]>> = {
  fatal: ['error', 'log'],
  error: ['error', 'log'],
  warn: ['warn', 'error', 'log'],
}

function consoleSink(name: string): Sink {
  const c = (globalThis as unknown as { console?: Record<string, unknown> }).console ?? {}
  for (const candidate of consoleFallback[name] ?? [name, 'log']) {
    const fn = c[candidate]
    if (typeof fn === 'function') return { fn: fn as LogFn, self: c }
  }
  return { fn: noop, self: c }
}

export function buildShared(options: BrowserLoggerOptions): Shared {
  const browser = options.browser ?? {}
  const customLevels = options.customLevels ?? {}
  for (const [name, value] of Object.entries(customLevels)) {
    if (typeof value !== 'number') {
      throw logxError('LOGX_ERR_INVALID_OPTION', `customLevels.${name} must be a number`, `customLevels.${name}`)
    }
  }
  const values = options.useOnlyCustomLevels === true ? { ...customLevels } : { ...builtinValues, ...customLevels }
  const levels = levelsOf(values)
  const methodNames = Object.keys(values)

  const write = browser.write
  const sinks: Shared['sinks'] = {}
  for (const name of methodNames) {
    if (typeof write === 'function') sinks[name] = { fn: write, self: undefined }
    else if (write !== undefined && typeof write[name] === 'function')
      sinks[name] = { fn: write[name] as LogFn, self: write }
    else sinks[name] = consoleSink(name)
  }

  const serialize = browser.serialize
  const serializeKeys: Shared['serializeKeys'] =
    serialize === true
      ? 'all'
      : Array.isArray(serialize)
        ? serialize.filter((key) => key !== '!stdSerializers.err')
        : false
  const serializeErrors = serialize === true || (Array.isArray(serialize) && !serialize.includes('!stdSerializers.err'))

  const timestamp = options.timestamp
  const time: TimeFn =
    typeof timestamp === 'function'
      ? timestamp
      : timestamp === false
        ? stdTimeFunctions.nullTime
        : stdTimeFunctions.epochTime

  return {
    levels,
    methodNames,
    sinks,
    asObject: browser.asObject === true || write !== undefined || browser.formatters?.level !== undefined,
    levelFormatter: browser.formatters?.level,
    messageKey: options.messageKey ?? 'msg',
    time,
    serializeKeys,
    serializeErrors,
    onChild: options.onChild ?? (() => {}),
  }
}
