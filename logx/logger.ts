// Assembles a root logger from normalized options: every derived string and function is built
// here, once, so that level methods only read them.
import { createLevelComparison, assertDefaultLevelFound, createLevelMapping, createLevelPrefixes } from './levels'
import { createSafeStringify, stringifyValue, type SafeStringify } from './stringify'
import { createRedaction } from './redaction'
import { LogxError, LogxErrorCodes } from './errors'
import { serializeBindings } from './chindings'
import { loggerPrototype } from './proto'
import { noop } from './log-method'
import { createLineContext } from './line-context'
import type { NormalizedOptions } from './options'
import type { LoggerState, WritableDestination } from './logger-state'
import {
  chindingsSym,
  endSym,
  errorKeySym,
  formatOptsSym,
  formattersSym,
  hooksSym,
  levelCompSym,
  lineContextSym,
  lsCacheSym,
  messageKeySym,
  messageKeyStrSym,
  mixinMergeStrategySym,
  mixinSym,
  msgPrefixSym,
  nestedKeySym,
  nestedKeyStrSym,
  onChildSym,
  redactStringifiersSym,
  redactSym,
  serializersSym,
  setLevelSym,
  streamSym,
  stringifySafeSym,
  timeSliceIndexSym,
  timeSym,
  transportUsesMultistreamSym,
  useOnlyCustomLevelsSym,
} from './symbols'

export type { LoggerState, WritableDestination }

const pinoUsesMultistreamSym = Symbol.for('pino.transport.usesMultistream')

/** A transport stream says it routes lines through a multistream (logx's flag or pino's). */
interface MultistreamFlags {
  [transportUsesMultistreamSym]?: unknown
  [pinoUsesMultistreamSym]?: unknown
}

/**
 * A transport with several targets routes each line on its numeric `level`: a level formatter
 * that writes something else makes lines vanish, so say so (pino warns the same way).
 */
function warnOnUnroutableLevels(options: NormalizedOptions, levels: { values: Record<string, number> }): void {
  const label =
    typeof options.level === 'string' && levels.values[options.level] !== undefined
      ? options.level
      : Object.keys(levels.values)[0]
  if (label === undefined) return
  let numeric = false
  try {
    const shape = options.formatters.level(label, levels.values[label] as number) as { level?: unknown } | null
    numeric = typeof shape === 'object' && shape !== null && shape.level === levels.values[label]
  } catch {
    numeric = false
  }
  if (!numeric) {
    const message =
      'custom formatters.level detected with multiple transport targets/pipelines; ' +
      'ensure logs include a numeric "level" field or they may be dropped'
    process.emitWarning(message, { code: 'LOGX_TRANSPORT_MULTI_TARGETS_LEVEL_FORMATTER' })
  }
}

/** `JSON.stringify`, then the safe encoder, then pino's placeholder: pino's `stringify` for one logger. */
function createStringify(safe: SafeStringify): (value: unknown) => string | undefined {
  return (value) => stringifyValue(value, safe)
}

function checkPinoRules(options: NormalizedOptions): void {
  if (options.useOnlyCustomLevels && !options.customLevels) {
    const message = 'customLevels is required if useOnlyCustomLevels is set true'
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, message, 'useOnlyCustomLevels')
  }
  const { mixin, msgPrefix } = options
  if (mixin && typeof mixin !== 'function') {
    throw new LogxError(
      LogxErrorCodes.INVALID_OPTION,
      `Unknown mixin type "${typeof mixin}" - expected "function"`,
      'mixin',
    )
  }
  if (msgPrefix && typeof msgPrefix !== 'string') {
    const message = `Unknown msgPrefix type "${typeof msgPrefix}" - expected "string"`
    throw new LogxError(LogxErrorCodes.INVALID_OPTION, message, 'msgPrefix')
  }
  assertDefaultLevelFound(options.level, options.customLevels, options.useOnlyCustomLevels)
}

/** The root's chindings: `base` (with `name`) through the root's own bindings formatter. */
function rootChindings(instance: LoggerState, options: NormalizedOptions): string {
  const { base, name } = options
  // As in pino: base: null drops name too; base: undefined reaches the formatter as it is.
  if (base === null) return ''
  return serializeBindings(instance, name === undefined ? base : { ...base, name }, '')
}

// The checks run in pino's order, so that options wrong in two ways fail as they fail in pino.
export function createRootLogger(options: NormalizedOptions, stream: WritableDestination): LoggerState {
  const safeStringify = createSafeStringify({ depthLimit: options.depthLimit, edgeLimit: options.edgeLimit })
  const stringify = createStringify(safeStringify)
  const redaction = options.redact ? createRedaction(options.redact, stringify) : null
  const instance = Object.create(loggerPrototype) as LoggerState
  Object.assign(instance, {
    [stringifySafeSym]: safeStringify,
    [redactStringifiersSym]: redaction === null ? null : redaction.stringifiers,
    [redactSym]: redaction,
    [formatOptsSym]: { stringify: redaction === null ? stringify : redaction.stringifyAll },
    [serializersSym]: options.serializers,
    [formattersSym]: options.formatters,
    [chindingsSym]: '',
  })
  instance[chindingsSym] = rootChindings(instance, options)
  checkPinoRules(options)
  const levels = createLevelMapping(options.customLevels, options.useOnlyCustomLevels)
  if (
    (stream as MultistreamFlags)[transportUsesMultistreamSym] === true ||
    (stream as MultistreamFlags)[pinoUsesMultistreamSym] === true
  ) {
    warnOnUnroutableLevels(options, levels)
  }
  // Transports and pino-abstract-transport targets learn the level names and keys from this message.
  if (typeof stream.emit === 'function') {
    const config = { levels, messageKey: options.messageKey, errorKey: options.errorKey }
    stream.emit('message', { code: 'PINO_CONFIG', config })
  }
  Object.assign(instance, {
    levels,
    [levelCompSym]: createLevelComparison(options.levelComparison),
    [useOnlyCustomLevelsSym]: options.useOnlyCustomLevels,
    [streamSym]: stream,
    [timeSym]: options.time,
    [timeSliceIndexSym]: options.time().indexOf(':') + 1,
    [endSym]: '}' + (options.crlf ? '\r\n' : '\n'),
    [messageKeySym]: options.messageKey,
    // pino writes the message key as given (the merged keys are escaped, this one is not).
    [messageKeyStrSym]: ',"' + options.messageKey + '":',
    [errorKeySym]: options.errorKey,
    [nestedKeySym]: options.nestedKey,
    [nestedKeyStrSym]: options.nestedKey ? ',' + JSON.stringify(options.nestedKey) + ':{' : '',
    [mixinSym]: options.mixin,
    [mixinMergeStrategySym]: options.mixinMergeStrategy,
    [hooksSym]: options.hooks,
    [msgPrefixSym]: options.msgPrefix,
    [onChildSym]: options.onChild ?? noop,
    [lineContextSym]: createLineContext(options.asyncContext, options.otel),
  })
  instance[lsCacheSym] = createLevelPrefixes(levels, options.formatters.level)
  instance[setLevelSym](options.level)
  return instance
}
