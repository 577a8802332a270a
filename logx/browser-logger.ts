// The browser logger's class. Like the Node logger, the work is done when the level is set: a
// disabled method is the shared no-op and an enabled one is a closure that already knows its sink
// (console method or `browser.write`) and the bindings of its logger chain.

import { toObject } from './browser-as-object.js'
import { logxError } from './browser-error.js'
import { serializeArgs, serializeObject } from './browser-serializers.js'
import { noop } from './browser-settings.js'
import type { BrowserLogger, ChildOptions, Levels, LogFn, Serializer, Shared, Sink } from './browser-types.js'
import { version } from './version.js'

export class Logger {
  [method: string]: unknown
  readonly version = version
  readonly levels: Levels
  serializers: Record<string, Serializer>
  readonly #shared: Shared
  /** Own bindings of each logger from the root down to this one (already serialized). */
  readonly #chain: Record<string, unknown>[]
  #level = 'info'

  constructor(
    shared: Shared,
    chain: Record<string, unknown>[],
    serializers: Record<string, Serializer>,
    level: string,
  ) {
    this.#shared = shared
    this.#chain = chain
    this.levels = shared.levels
    this.serializers = serializers
    this.level = level
  }

  get level(): string {
    return this.#level
  }

  set level(label: string) {
    const { levels, methodNames } = this.#shared
    if (label !== 'silent' && !Object.hasOwn(levels.values, label)) {
      throw logxError('LOGX_ERR_UNKNOWN_LEVEL', `unknown level "${String(label)}"`, 'level')
    }
    this.#level = label
    const threshold = this.levelVal
    for (const name of methodNames) {
      this[name] = (levels.values[name] as number) >= threshold ? this.#method(name) : noop
    }
  }

  get [Symbol.for('logx.serializers')](): Record<string, Serializer> {
    return this.serializers
  }

  get levelVal(): number {
    return this.#level === 'silent' ? Infinity : (this.#shared.levels.values[this.#level] as number)
  }

  isLevelEnabled(label: string): boolean {
    const value = this.#shared.levels.values[label]
    return value !== undefined && value >= this.levelVal
  }

  child(bindings: Record<string, unknown>, options: ChildOptions = {}): BrowserLogger {
    if (bindings === null || typeof bindings !== 'object') {
      throw logxError('LOGX_ERR_MISSING_BINDINGS', 'child() needs a bindings object', 'bindings')
    }
    const { serializers: legacySerializers, ...own } = bindings as { serializers?: Record<string, Serializer> }
    const extra = options.serializers ?? legacySerializers
    const serializers = extra === undefined ? this.serializers : { ...this.serializers, ...extra }
    const chain = [...this.#chain, serializeObject(own, serializers, this.#shared)]
    const child = new Logger(this.#shared, chain, serializers, options.level ?? this.#level) as unknown as BrowserLogger
    this.#shared.onChild(child)
    return child
  }

  bindings(): Record<string, unknown> {
    return Object.assign({}, ...this.#chain) as Record<string, unknown>
  }

  /** Adds bindings to this logger (not to loggers already created from it). */
  setBindings(bindings: Record<string, unknown>): void {
    const own = this.#chain.pop() ?? {}
    this.#chain.push({ ...own, ...serializeObject(bindings, this.serializers, this.#shared) })
    this.level = this.#level
  }

  flush(): void {}
  silent(): void {}

  // The Node logger is an event emitter; here nothing emits, so listeners are accepted and ignored.
  on(): this {
    return this
  }
  once(): this {
    return this
  }
  addListener(): this {
    return this
  }
  prependListener(): this {
    return this
  }
  prependOnceListener(): this {
    return this
  }
  removeListener(): this {
    return this
  }
  off(): this {
    return this
  }
  removeAllListeners(): this {
    return this
  }
  emit(): boolean {
    return false
  }
  listeners(): unknown[] {
    return []
  }
  listenerCount(): number {
    return 0
  }
  eventNames(): string[] {
    return []
  }

  #method(name: string): LogFn {
    const shared = this.#shared
    const sink = shared.sinks[name] as Sink
    const value = shared.levels.values[name] as number
    const chain = this.#chain
    const logger = this
    if (shared.asObject) {
      const merged = Object.assign({}, ...chain) as Record<string, unknown>
      return function logAsObject(...args: unknown[]): void {
        // As in the Node logger: an error first argument is logged under `err` and lends its message.
        const list = args[0] instanceof Error ? [{ err: args[0] }, ...args.slice(1)] : args
        sink.fn.call(sink.self, toObject(shared, name, value, merged, serializeArgs(list, logger.serializers, shared)))
      }
    }
    return function logToConsole(...args: unknown[]): void {
      sink.fn.apply(sink.self, [...chain, ...serializeArgs(args, logger.serializers, shared)])
    }
  }
}
