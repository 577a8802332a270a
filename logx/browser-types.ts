// The types of the browser build. Imported with `import type` only, so no compiled browser module
// requires this one and a bundle of the browser build does not need it.

export type LogFn = (...args: unknown[]) => void
// pino's contract for user serializers: an untyped `(user) => user.id` compiles.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the value is whatever the user logged
export type Serializer = (value: any) => unknown
export type TimeFn = () => unknown

export interface BrowserOptions {
  /** Log one pino-like object ({ level, time, ...bindings, ...obj, msg }) instead of raw arguments. */
  asObject?: boolean
  /** Receives the log objects instead of the console: one function, or one per level. Implies asObject. */
  write?: LogFn | Partial<Record<string, LogFn>>
  /** Apply serializers: true for all, or a list of keys ('!stdSerializers.err' turns off the error one). */
  serialize?: boolean | string[]
  /** Same as `level: 'silent'`. */
  disabled?: boolean
  formatters?: { level?: (label: string, value: number) => Record<string, unknown> }
}

export interface BrowserLoggerOptions {
  level?: string
  customLevels?: Record<string, number>
  useOnlyCustomLevels?: boolean
  enabled?: boolean
  messageKey?: string
  timestamp?: boolean | TimeFn
  serializers?: Record<string, Serializer>
  onChild?: (child: BrowserLogger) => void
  browser?: BrowserOptions
  [option: string]: unknown
}

export interface ChildOptions {
  level?: string
  serializers?: Record<string, Serializer>
  [option: string]: unknown
}

export interface Levels {
  values: Record<string, number>
  labels: Record<number, string>
}

/** Where one level's calls go: a console method (with the console as `this`) or a `browser.write` function. */
export interface Sink {
  fn: LogFn
  self: unknown
}

/** Settings shared by a root logger and all its children. */
export interface Shared {
  levels: Levels
  methodNames: string[]
  sinks: Record<string, Sink>
  asObject: boolean
  levelFormatter: ((label: string, value: number) => Record<string, unknown>) | undefined
  messageKey: string
  time: TimeFn
  /** Keys whose serializers run, or false when serializers are off (the browser default). */
  serializeKeys: string[] | 'all' | false
  serializeErrors: boolean
  onChild: (child: BrowserLogger) => void
}

export interface BrowserLogger {
  [method: string]: unknown
  level: string
  readonly levelVal: number
  readonly levels: Levels
  readonly version: string
  child(bindings: Record<string, unknown>, options?: ChildOptions): BrowserLogger
  bindings(): Record<string, unknown>
  setBindings(bindings: Record<string, unknown>): void
  isLevelEnabled(level: string): boolean
  flush(): void
  silent: LogFn
  fatal: LogFn
  error: LogFn
  warn: LogFn
  info: LogFn
  debug: LogFn
  trace: LogFn
}
