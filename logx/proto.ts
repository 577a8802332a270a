// The prototype every logger shares: level handling, children, bindings, flush.
import { LogxError, LogxErrorCodes } from './errors'
import {
  DEFAULT_LEVELS,
  assertNoLevelCollisions,
  createLevelMapping,
  createLevelPrefixes,
  isStandardLevel,
} from './levels'
import { getLogMethod, noop } from './log-method'
import { identityBindings, serializeBindings } from './chindings'
import { asJson, write } from './write'
import { createRedaction } from './redaction'
import { version } from './version'
import { answerToPinoSymbols } from './pino-symbols'
import { UNSERIALIZABLE_JSON, type SafeStringify } from './stringify'
import type { Serializer } from './option-types'
import type { Stringifier } from './redaction'
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

import type { LoggerFormatters, LoggerState } from './logger-state'

function setLevel(this: LoggerState, level: string | number): void {
  const { labels, values } = this.levels
  let label = level as string
  if (typeof level === 'number') {
    const found = labels[level]
    if (found === undefined) throw new LogxError(LogxErrorCodes.UNKNOWN_LEVEL, 'unknown level value' + level, 'level')
    label = found
  }
  if (values[label] === undefined) throw new LogxError(LogxErrorCodes.UNKNOWN_LEVEL, 'unknown level ' + label, 'level')
  // Undefined while the root logger sets its first level.
  const previousValue = this[levelValSym] as number | undefined
  const value = values[label] as number
  this[levelValSym] = value
  const isEnabled = this[levelCompSym]
  const hook = this[hooksSym].logMethod
  const onlyCustom = this[useOnlyCustomLevelsSym]
  for (const name in values) {
    const levelValue = values[name] as number
    if (isEnabled(levelValue, value) === false) {
      this[name] = noop
      continue
    }
    // A built-in name keeps its built-in number even when customLevels renumbers it, as in pino.
    const standard = !onlyCustom && isStandardLevel(name)
    this[name] = getLogMethod(
      standard ? (DEFAULT_LEVELS[name] as number) : levelValue,
      hook,
      standard && name === 'fatal',
    )
  }
  this.emit(
    'level-change',
    label,
    value,
    previousValue === undefined ? undefined : labels[previousValue],
    previousValue,
    this,
  )
}

function getLevel(this: LoggerState): string {
  // Read through `this` so that a serializer that lost its logger (pino#833) gets '' rather than a throw.
  const labels = this.levels?.labels
  return labels ? (labels[this[levelValSym]] as string) : ''
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
      return (safe ?? this[stringifySafeSym])(value)
    } catch {
      return UNSERIALIZABLE_JSON
    }
  }
}

// pino's stringifiers are `{}` without redaction; logx keeps null there, which the write path tests faster.
const NO_STRINGIFIERS: Readonly<Record<string | symbol, unknown>> = Object.freeze(
  Object.create(null) as Record<string | symbol, unknown>,
)

function isLevelEnabled(this: LoggerState, level: string): boolean {
  const value = this.levels.values[level]
  return value !== undefined && this[levelCompSym](value, this[levelValSym])
}

/** The parent's serializers with the child's on top (a null or undefined one turns the key off). */
function copySerializers(
  parent: Record<string | symbol, Serializer | undefined>,
  added: Record<string | symbol, Serializer | null | undefined>,
): Record<string | symbol, Serializer | undefined> {
  const merged = Object.create(null) as Record<string | symbol, Serializer | undefined>
  const put = (key: string | symbol, serializer: Serializer | null | undefined): void => {
    if (serializer === undefined || serializer === null) delete merged[key]
    else merged[key] = serializer
  }
  for (const source of [parent, added] as Record<string | symbol, Serializer | null | undefined>[]) {
    for (const key in source) put(key, source[key])
    for (const sym of Object.getOwnPropertySymbols(source)) put(sym, source[sym])
  }
  return merged
}

type Formatters = Partial<LoggerFormatters>

interface ChildOptions {
  level?: string
  /** A null or undefined serializer turns the parent's off for its key. */
  serializers?: Record<string, Serializer | null | undefined>
  formatters?: Formatters
  customLevels?: Record<string, number>
  redact?: unknown
  msgPrefix?: string
}

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key)

/** A child's formatters: the root's `bindings` formatter shapes only `base`, never a child's bindings. */
function childFormatters(parent: LoggerFormatters, own: Formatters | undefined): LoggerFormatters {
  if (own === undefined && parent.bindings === identityBindings) return parent
  return { level: own?.level || parent.level, bindings: own?.bindings || identityBindings, log: own?.log || parent.log }
}

/**
 * A child's redaction encodes as pino's does: with JSON.stringify and pino's placeholder when that
 * throws (pino hands a child's redaction its encoder without the safe fallback).
 */
function childSerialize(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch {
    return UNSERIALIZABLE_JSON
  }
}

function applyChildOptions(parent: LoggerState, instance: LoggerState, opts: ChildOptions): void {
  if (hasOwn(opts, 'serializers')) {
    instance[serializersSym] = copySerializers(parent[serializersSym], opts.serializers ?? {})
  }
  if (hasOwn(opts, 'formatters')) {
    instance[formattersSym] = childFormatters(parent[formattersSym], opts.formatters ?? {})
  }
  if (hasOwn(opts, 'customLevels')) {
    assertNoLevelCollisions(parent.levels, opts.customLevels as Record<string, number>, 'options.customLevels')
    instance.levels = createLevelMapping(opts.customLevels, instance[useOnlyCustomLevelsSym])
    instance[lsCacheSym] = createLevelPrefixes(instance.levels, instance[formattersSym].level)
  }
  if (typeof opts.redact === 'object' && opts.redact !== null) {
    const redaction = createRedaction(opts.redact, childSerialize, 'options.redact')
    instance.redact = opts.redact
    instance[redactSym] = redaction
    instance[redactStringifiersSym] = redaction.stringifiers
    instance[formatOptsSym] = { stringify: redaction.stringifyAll }
  }
  if (typeof opts.msgPrefix === 'string') instance[msgPrefixSym] = (parent[msgPrefixSym] || '') + opts.msgPrefix
}

function child(this: LoggerState, bindings: Record<string, unknown>, options?: ChildOptions | null): LoggerState {
  if (!bindings) throw new LogxError(LogxErrorCodes.MISSING_BINDINGS, 'missing bindings for child Pino', 'bindings')
  const instance = Object.create(this) as LoggerState
  instance[formattersSym] = childFormatters(this[formattersSym], undefined)
  if (options === undefined || options === null) {
    // The common case, kept short: bindings only, same level.
    instance[chindingsSym] = serializeBindings(instance, bindings, this[chindingsSym])
    const onChild = this[onChildSym]
    // Called as pino calls it, as a method of the parent.
    if (onChild !== noop) onChild.call(this, instance)
    return instance
  }
  applyChildOptions(this, instance, options)
  instance[chindingsSym] = serializeBindings(instance, bindings, this[chindingsSym])
  // As in pino 10, level-change is emitted only when the child's level is set anew.
  if ((options.level !== undefined && options.level !== this.level) || hasOwn(options, 'customLevels')) {
    instance[setLevelSym](options.level || this.level)
  }
  this[onChildSym].call(this, instance)
  return instance
}

function bindings(this: LoggerState): Record<string, unknown> {
  const chindings = this[chindingsSym]
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
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, 'callback must be a function', 'cb')
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

export const loggerPrototype: Partial<LoggerState> & ThisType<LoggerState> = {
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
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, 'levelVal is read-only', 'levelVal')
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
    // Whoever sets them (an ecosystem package, as in pino) hands in stringifiers by key.
    this[redactStringifiersSym] = value === NO_STRINGIFIERS ? null : (value as Record<string | symbol, Stringifier>)
  },
  [writeSym]: write,
  [asJsonSym]: asJson,
  [getLevelSym]: getLevel,
  [setLevelSym]: setLevel,
  [stringifySym]: stringify,
}
answerToPinoSymbols(loggerPrototype)
