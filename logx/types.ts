// The public types of a logger instance.
import type { EventEmitter } from 'node:events'
import type { LevelMapping } from './levels'
import type { Bindings, Formatters, Serializer, LoggerOptions } from './options'

export type LogFn = {
  (obj: unknown, msg?: string, ...args: unknown[]): void
  (msg: string, ...args: unknown[]): void
}

export interface ChildOptions {
  level?: string
  serializers?: Record<string, Serializer>
  formatters?: Formatters
  customLevels?: Record<string, number>
  redact?: LoggerOptions['redact']
  msgPrefix?: string
}

export interface BaseLogger extends EventEmitter {
  level: string
  readonly levelVal: number
  readonly levels: LevelMapping
  readonly version: string
  readonly msgPrefix: string | undefined
  fatal: LogFn
  error: LogFn
  warn: LogFn
  info: LogFn
  debug: LogFn
  trace: LogFn
  silent: LogFn
  child(bindings: Bindings, options?: ChildOptions): Logger
  bindings(): Bindings
  setBindings(bindings: Bindings): void
  flush(cb?: (err?: Error | null) => void): void
  isLevelEnabled(level: string): boolean
  on(event: 'level-change', listener: (label: string, value: number, previousLabel: string, previousValue: number, logger: Logger) => void): this
  on(event: string | symbol, listener: (...args: any[]) => void): this
}

/** A logger; custom level methods are reachable by name. */
export type Logger = BaseLogger & { [customLevel: string]: LogFn | any }
