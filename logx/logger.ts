// Assembles a root logger from normalized options: every derived string and function is built
// here, once, so that level methods only read them.
import { createLevelComparison, assertDefaultLevelFound, createLevelMapping, createLevelPrefixes } from './levels'
import { createSafeStringify } from './stringify'
import { createRedaction, interpolationStringify } from './redaction'
import { serializeBindings } from './chindings'
import { loggerPrototype } from './proto'
import { noop } from './log-method'
import type { NormalizedOptions } from './options'
import {
  chindingsSym,
  endSym,
  errorKeySym,
  formatOptsSym,
  formattersSym,
  hooksSym,
  levelCompSym,
  lsCacheSym,
  messageKeySym,
  messageKeyStrSym,
  mixinMergeStrategySym,
  mixinSym,
  msgPrefixSym,
  nestedKeySym,
  nestedKeyStrSym,
  onChildSym,
  redactSym,
  serializersSym,
  setLevelSym,
  streamSym,
  stringifiersSym,
  stringifySafeSym,
  timeSliceIndexSym,
  timeSym,
  useOnlyCustomLevelsSym,
} from './symbols'

export type LoggerState = Record<string | symbol, any>

export interface WritableDestination {
  write(line: string): unknown
  [key: string | symbol]: any
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
    [stringifiersSym]: redaction === null ? null : redaction.stringifiers,
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
  })
  instance[lsCacheSym] = createLevelPrefixes(levels, options.formatters.level)
  if (options.base !== null) {
    const base = options.name === undefined ? options.base : { ...options.base, name: options.name }
    instance[chindingsSym] = serializeBindings(instance, base, '')
  } else if (options.name !== undefined) {
    instance[chindingsSym] = serializeBindings(instance, { name: options.name }, '')
  }
  instance[setLevelSym](options.level)
  // Transports and pino-abstract-transport targets learn the level names and keys from this message.
  if (typeof stream.emit === 'function') {
    stream.emit('message', { code: 'PINO_CONFIG', config: { levels, messageKey: options.messageKey, errorKey: options.errorKey } })
  }
  return instance
}
