// The prototype every logger shares: level handling, children, bindings, flush.
import { LogxError, LogxErrorCodes } from './errors'
import { assertCustomLevels, assertNoLevelCollisions, createLevelMapping, createLevelPrefixes, isStandardLevel } from './levels'
import { getLogMethod, noop } from './log-method'
import { serializeBindings } from './chindings'
import { asJson, write } from './write'
import { createRedaction, interpolationStringify } from './redaction'
import { version } from './version'
import { answerToPinoSymbols } from './pino-symbols'
import { UNSERIALIZABLE_JSON, type SafeStringify } from './stringify'
import {
  asJsonSym,
  chindingsSym,
  formatOptsSym,
  formattersSym,
  getLevelSym,
  hooksSym,
  levelCompSym,
  levelValSym,
  lsCacheSym,
  msgPrefixSym,
  onChildSym,
  redactStringifiersSym,
  redactSym,
  serializersSym,
  setLevelSym,
  streamSym,
  stringifiersSym,
  stringifySafeSym,
  stringifySym,
  useOnlyCustomLevelsSym,
  writeSym,
} from './symbols'

type LoggerState = Record<string | symbol, any>

function setLevel(this: LoggerState, level: string | number): void {
  const { labels, values } = this.levels
  let label: string
  if (typeof level === 'number') {
    const found = labels[level]
    if (found === undefined) throw new LogxError(LogxErrorCodes.UNKNOWN_LEVEL, `unknown level value ${level}`, 'level')
    label = found
  } else {
    label = level
  }
  const value = values[label]
  if (typeof value !== 'number') {
    throw new LogxError(LogxErrorCodes.UNKNOWN_LEVEL, `unknown level ${String(label)} (known levels: ${Object.keys(values).concat('silent').join(', ')})`, 'level')
  }
  const previousValue: number | undefined = this[levelValSym]
  this[levelValSym] = value
  const isEnabled = this[levelCompSym]
  const hook = this[hooksSym].logMethod
  const onlyCustom = this[useOnlyCustomLevelsSym]
  for (const name in values) {
    const levelValue = values[name] as number
    if (!isEnabled(levelValue, value)) {
      this[name] = noop
      continue
    }
    this[name] = getLogMethod(levelValue, hook, name === 'fatal' && !onlyCustom && isStandardLevel(name))
  }
  this.emit('level-change', label, value, previousValue === undefined ? undefined : labels[previousValue], previousValue, this)
}

function getLevel(this: LoggerState): string {
  // Read through `this` so that a serializer that lost its logger (pino#833) gets '' rather than a throw.
  const labels = this.levels?.labels
  return labels ? labels[this[levelValSym]] : ''
}

/**
 * `logger[stringifySym](value, [safe])`, as pino's: JSON.stringify, the safe encoder when that
 * throws, pino's placeholder when both do. pino-http calls it to compare custom props with a
 * logger's bindings.
 */
function stringify(this: LoggerState, value: unknown, safe?: SafeStringify): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    try {
      return (safe ?? (this[stringifySafeSym] as SafeStringify))(value)
    } catch {
      return UNSERIALIZABLE_JSON
    }
  }
}

// pino's stringifiers are `{}` without redaction; logx keeps null there, which the write path tests faster.
const NO_STRINGIFIERS: Readonly<Record<string | symbol, unknown>> = Object.freeze(Object.create(null))

function isLevelEnabled(this: LoggerState, level: string): boolean {
  const value = this.levels.values[level]
  return value !== undefined && this[levelCompSym](value, this[levelValSym])
}

/** The parent's serializers with the child's on top; a child's `err: null` (or undefined) turns `err` off. */
function copySerializers(parent: Record<string | symbol, unknown>, added: Record<string | symbol, unknown>): Record<string | symbol, unknown> {
  const merged: Record<string | symbol, unknown> = Object.create(null)
  const put = (key: string | symbol, serializer: unknown): void => {
    if (serializer === undefined || serializer === null) delete merged[key]
    else merged[key] = serializer
  }
  for (const source of [parent, added]) {
    for (const key in source) put(key, source[key])
    for (const sym of Object.getOwnPropertySymbols(source)) put(sym, source[sym])
  }
  return merged
}

interface ChildOptions {
  level?: string
  serializers?: Record<string, (value: any) => unknown>
  formatters?: { level?: (label: string, value: number) => object; bindings?: (bindings: Record<string, unknown>) => Record<string, unknown>; log?: (obj: Record<string, unknown>) => Record<string, unknown> }
  customLevels?: Record<string, number>
  redact?: unknown
  msgPrefix?: string
}

function hasReservedBinding(bindings: Record<string, unknown>): boolean {
  return bindings.level !== undefined || bindings.serializers !== undefined || bindings.formatters !== undefined || bindings.customLevels !== undefined
}

/** Moves deprecated configuration keys out of the bindings, with a warning that names the replacement. */
function takeDeprecatedBindingOptions(bindings: Record<string, unknown>, options: ChildOptions): ChildOptions {
  let result = options
  for (const key of ['serializers', 'formatters', 'customLevels', 'level'] as const) {
    if (!Object.prototype.hasOwnProperty.call(bindings, key)) continue
    process.emitWarning(`bindings.${key} is deprecated, use options.${key} of child() instead`, { code: 'LOGX_DEP_BINDINGS_' + key.toUpperCase() })
    if (result === options) result = { ...options }
    ;(result as Record<string, unknown>)[key] = bindings[key]
  }
  return result
}

function child(this: LoggerState, bindings: Record<string, unknown>, options?: ChildOptions | null): LoggerState {
  if (!bindings || typeof bindings !== 'object') {
    throw new LogxError(LogxErrorCodes.MISSING_BINDINGS, 'missing bindings for child logger: child(bindings, [options]) needs an object', 'bindings')
  }
  const instance: LoggerState = Object.create(this)
  if ((options === undefined || options === null) && !hasReservedBinding(bindings)) {
    // The common case, kept short: bindings only, same level.
    instance[chindingsSym] = serializeBindings(instance, bindings, this[chindingsSym])
    return announceChild(this, instance)
  }
  const opts = takeDeprecatedBindingOptions(bindings, options ?? {})
  let levelShapeChanged = false

  if (opts.serializers !== undefined) {
    instance[serializersSym] = copySerializers(this[serializersSym], opts.serializers as Record<string, unknown>)
  }
  if (opts.formatters !== undefined) {
    const parent = this[formattersSym]
    instance[formattersSym] = {
      level: opts.formatters.level ?? parent.level,
      bindings: opts.formatters.bindings ?? parent.bindings,
      log: opts.formatters.log ?? parent.log,
    }
    levelShapeChanged = opts.formatters.level !== undefined
  }
  if (opts.customLevels !== undefined) {
    assertCustomLevels(opts.customLevels, 'options.customLevels')
    assertNoLevelCollisions(this.levels, opts.customLevels, 'options.customLevels')
    const inherited: Record<string, number> = { ...this.levels.values }
    instance.levels = createLevelMapping({ ...inherited, ...opts.customLevels }, true)
    levelShapeChanged = true
  }
  if (levelShapeChanged) instance[lsCacheSym] = createLevelPrefixes(instance.levels, instance[formattersSym].level)
  if (opts.redact !== undefined) {
    const redaction = createRedaction(opts.redact, instance[stringifySafeSym], 'options.redact')
    instance[redactSym] = redaction
    instance[redactStringifiersSym] = redaction === null ? null : redaction.stringifiers
    instance[formatOptsSym] = interpolationStringify(redaction, instance[stringifySafeSym])
  }
  if (typeof opts.msgPrefix === 'string') instance[msgPrefixSym] = (this[msgPrefixSym] ?? '') + opts.msgPrefix

  instance[chindingsSym] = serializeBindings(instance, bindings, this[chindingsSym])

  if ((opts.level !== undefined && opts.level !== this.level) || opts.customLevels !== undefined) {
    instance[setLevelSym](opts.level ?? this.level)
    return announceChild(this, instance, false)
  }
  return announceChild(this, instance)
}

/** Every child() emits level-change, with the child last (the spec keeps pino's documented defect), then onChild. */
function announceChild(parent: LoggerState, instance: LoggerState, emitLevelChange = true): LoggerState {
  if (emitLevelChange) {
    // setLevel emits on its own when the child's level differs.
    const value = parent[levelValSym]
    const label = parent.levels.labels[value]
    instance.emit('level-change', label, value, label, value, instance)
  }
  const onChild = parent[onChildSym]
  // Called as pino calls it, as a method of the parent.
  if (onChild !== noop) onChild.call(parent, instance)
  return instance
}

function bindings(this: LoggerState): Record<string, unknown> {
  const chindings: string = this[chindingsSym]
  const parsed = JSON.parse('{' + chindings.slice(1) + '}') as Record<string, unknown>
  delete parsed.pid
  delete parsed.hostname
  return parsed
}

function setBindings(this: LoggerState, newBindings: Record<string, unknown>): void {
  this[chindingsSym] = serializeBindings(this, newBindings)
}

function flush(this: LoggerState, cb?: (err?: Error | null) => void): void {
  if (cb !== undefined && cb !== null && typeof cb !== 'function') {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, 'flush(cb): callback must be a function', 'cb')
  }
  const stream = this[streamSym]
  if (typeof stream.flush !== 'function') {
    if (cb) cb()
    return
  }
  if (!cb) {
    stream.flush(noop)
    return
  }
  // sonic-boom calls back before an in-flight write lands when minLength is 0; the callback
  // promises the lines are written, so wait until the destination is idle.
  stream.flush((err?: Error | null) => {
    if (err) return cb(err)
    const whenIdle = (): void => {
      if (stream._writing === true && stream.destroyed !== true) setImmediate(whenIdle)
      else cb()
    }
    whenIdle()
  })
}

export const loggerPrototype: LoggerState = {
  child,
  bindings,
  setBindings,
  flush,
  isLevelEnabled,
  version,
  silent: noop,
  get level(): string {
    return this[getLevelSym]()
  },
  set level(level: string) {
    this[setLevelSym](level)
  },
  get levelVal(): number {
    return this[levelValSym]
  },
  set levelVal(_value: number) {
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, 'levelVal is read-only: set logger.level instead', 'levelVal')
  },
  get msgPrefix(): string | undefined {
    return this[msgPrefixSym]
  },
  // pino's public `logger.onChild` (typed and documented there): reassigning it changes the callback
  // for the children made from then on, of this logger and of those that inherit it.
  get onChild(): (child: LoggerState) => void {
    return this[onChildSym]
  },
  set onChild(callback: ((child: LoggerState) => void) | null | undefined) {
    if (callback !== undefined && callback !== null && typeof callback !== 'function') {
      throw new LogxError(LogxErrorCodes.INVALID_OPTION, 'onChild must be a function', 'onChild')
    }
    this[onChildSym] = callback ?? noop
  },
  get [Symbol.toStringTag](): string {
    return 'Logx'
  },
  get [stringifiersSym](): Record<string | symbol, unknown> {
    return this[redactStringifiersSym] ?? NO_STRINGIFIERS
  },
  set [stringifiersSym](value: Record<string | symbol, unknown> | null) {
    this[redactStringifiersSym] = value === NO_STRINGIFIERS ? null : value
  },
  [writeSym]: write,
  [asJsonSym]: asJson,
  [getLevelSym]: getLevel,
  [setLevelSym]: setLevel,
  [stringifySym]: stringify,
}
answerToPinoSymbols(loggerPrototype)
