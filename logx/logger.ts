// Assembles a root logger from normalized options: every derived string and function is built
// here, once, so that level methods only read them.
import { createLevelComparison, assertDefaultLevelFound, createLevelMapping, createLevelPrefixes } from './levels'
import { createSafeStringify } from './stringify'
import { createRedaction, interpolationStringify } from './redaction'
import { serializeBindings } from './chindings'
import { loggerPrototype } from './proto'
import { noop } from './log-method'
import { createLineContext } from './line-context'
import type { NormalizedOptions } from './options'
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

export type LoggerState = Record<string | symbol, any>

export interface WritableDestination {
  write(line: string): unknown
  [key: string | symbol]: any
}

const pinoUsesMultistreamSym = Symbol.for('pino.transport.usesMultistream')

/**
 * A transport with several targets routes each line on its numeric `level`: a level formatter
 * that writes something else makes lines vanish, so say so (pino warns the same way).
 */
function warnOnUnroutableLevels(options: NormalizedOptions, levels: { values: Record<string, number> }): void {
  const label = typeof options.level === 'string' && levels.values[options.level] !== undefined ? options.level : Object.keys(levels.values)[0]
  if (label === undefined) return
  let numeric = false
  try {
    const shape = options.formatters.level(label, levels.values[label] as number) as { level?: unknown } | null
    numeric = typeof shape === 'object' && shape !== null && shape.level === levels.values[label]
  } catch {
    numeric = false
  }
  if (!numeric) {
    process.emitWarning('custom formatters.level detected with multiple transport targets/pipelines; ensure logs include a numeric "level" field or they may be dropped', {
      code: 'LOGX_TRANSPORT_MULTI_TARGETS_LEVEL_FORMATTER',
    })
  }
}

export function createRootLogger(options: NormalizedOptions, stream: WritableDestination): LoggerState {
  assertDefaultLevelFound(options.level, options.customLevels, options.useOnlyCustomLevels)
  const levels = createLevelMapping(options.customLevels, options.useOnlyCustomLevels)
  const safeStringify = createSafeStringify({ depthLimit: options.depthLimit, edgeLimit: options.edgeLimit })
  const redaction = options.redact === undefined || options.redact === null ? null : createRedaction(options.redact, safeStringify)

  const instance: LoggerState = Object.create(loggerPrototype)
  Object.assign(instance, {
    levels,
    [levelCompSym]: createLevelComparison(options.levelComparison),
    [useOnlyCustomLevelsSym]: options.useOnlyCustomLevels,
    [streamSym]: stream,
    [timeSym]: options.time,
    [timeSliceIndexSym]: options.time().indexOf(':') + 1,
    [stringifySafeSym]: safeStringify,
    [redactStringifiersSym]: redaction === null ? null : redaction.stringifiers,
    [redactSym]: redaction,
    [formatOptsSym]: interpolationStringify(redaction, safeStringify),
    [endSym]: '}' + (options.crlf ? '\r\n' : '\n'),
    [messageKeySym]: options.messageKey,
    [messageKeyStrSym]: ',' + JSON.stringify(options.messageKey) + ':',
    [errorKeySym]: options.errorKey,
    [nestedKeySym]: options.nestedKey,
    [nestedKeyStrSym]: options.nestedKey === null ? '' : ',' + JSON.stringify(options.nestedKey) + ':{',
    [serializersSym]: options.serializers,
    [mixinSym]: options.mixin,
    [mixinMergeStrategySym]: options.mixinMergeStrategy,
    [formattersSym]: options.formatters,
    [hooksSym]: options.hooks,
    [msgPrefixSym]: options.msgPrefix,
    [onChildSym]: options.onChild ?? noop,
    [chindingsSym]: '',
    [lineContextSym]: createLineContext(options.asyncContext, options.otel),
  })
  instance[lsCacheSym] = createLevelPrefixes(levels, options.formatters.level)
  if (options.base !== null) {
    const base = options.name === undefined ? options.base : { ...options.base, name: options.name }
    instance[chindingsSym] = serializeBindings(instance, base, '')
  } else if (options.name !== undefined) {
    instance[chindingsSym] = serializeBindings(instance, { name: options.name }, '')
  }
  instance[setLevelSym](options.level)
  if (stream[transportUsesMultistreamSym] === true || stream[pinoUsesMultistreamSym] === true) warnOnUnroutableLevels(options, levels)
  // Transports and pino-abstract-transport targets learn the level names and keys from this message.
  if (typeof stream.emit === 'function') {
    stream.emit('message', { code: 'PINO_CONFIG', config: { levels, messageKey: options.messageKey, errorKey: options.errorKey } })
  }
  return instance
}
