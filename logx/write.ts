// The write path: one log call becomes one line. Everything here runs per call, so it only
// reads state prepared at construction and concatenates.
import { tracingChannel } from 'node:diagnostics_channel'
import { quoteString, stringifyValue, type SafeStringify } from './stringify'
import {
  asJsonSym,
  chindingsSym,
  endSym,
  errorKeySym,
  formattersSym,
  hooksSym,
  lineContextSym,
  lsCacheSym,
  messageKeySym,
  messageKeyStrSym,
  mixinMergeStrategySym,
  mixinSym,
  needsMetadataGsym,
  nestedKeyStrSym,
  redactStringifiersSym,
  redactSym,
  serializersSym,
  streamSym,
  stringifySafeSym,
  timeSliceIndexSym,
  timeSym,
  wildcardFirstSym,
} from './symbols'
import { reportLogFailure } from './failures'

import type { LoggerState } from './logger-state'
import type { Stringifier } from './redaction'

/** What a log call merges into its line: the user's object, whatever it holds. */
type MergingObject = Record<string, unknown>

const hasOwn = Object.prototype.hasOwnProperty
// pino's metadata flag, set by pino.multistream and pino-abstract-transport streams.
const pinoMetadataSym = Symbol.for('pino.metadata')

/** A stream asks for each line's level, object and message (logx's flag or pino's). */
interface MetadataFlags {
  [needsMetadataGsym]?: unknown
  [pinoMetadataSym]?: unknown
}

// APM tools trace pino through `tracing:pino_asJson:*`; logx publishes the same messages
// ({ instance, arguments }, then result or error) on `tracing:logx_asJson:*`.
const asJsonChannel = tracingChannel('logx_asJson')

/** Merge keys win over mixin keys unless a mixinMergeStrategy says otherwise. */
function defaultMixinMergeStrategy(mergeObject: object, mixinObject: object): object {
  return Object.assign(mixinObject, mergeObject)
}

/**
 * Encodes one property value as pino does, or undefined when the key is left out: undefined and
 * functions are left out before redaction sees them; non-finite numbers are null; everything else
 * goes to the key's redaction stringifier when there is one.
 */
function encodeValue(value: unknown, stringifier: Stringifier | undefined, safe: SafeStringify): string | undefined {
  switch (typeof value) {
    case 'undefined':
    case 'function':
      return undefined
    case 'number':
      if (stringifier !== undefined) return stringifier(Number.isFinite(value) ? value : null)
      return Number.isFinite(value) ? '' + value : 'null'
    case 'boolean':
      if (stringifier !== undefined) return stringifier(value)
      return value ? 'true' : 'false'
    case 'string':
      return stringifier === undefined ? quoteString(value) : stringifier(value)
    default:
      return stringifier === undefined ? stringifyValue(value, safe) : stringifier(value)
  }
}

/**
 * Encodes the message as pino does: a function is left out; anything else is written, even when
 * its encoder gives nothing (pino then writes `undefined`, and so does logx, byte for byte).
 */
function encodeMessage(value: unknown, stringifier: Stringifier | undefined, safe: SafeStringify): string | undefined {
  switch (typeof value) {
    case 'function':
      return undefined
    case 'number':
    case 'boolean': {
      const plain = typeof value === 'number' && !Number.isFinite(value) ? null : value
      return '' + (stringifier === undefined ? plain : stringifier(plain))
    }
    case 'string':
      return '' + (stringifier === undefined ? quoteString(value) : stringifier(value))
    default:
      return '' + (stringifier === undefined ? stringifyValue(value, safe) : stringifier(value))
  }
}

/** `logger[asJsonSym](obj, msg, level, time)`: the line, traced when someone subscribes (one check otherwise). */
export function asJson(
  this: LoggerState,
  obj: MergingObject | null | undefined,
  msg: unknown,
  level: number,
  time: string,
): string {
  if (asJsonChannel.hasSubscribers === false) return buildLine.call(this, obj, msg, level, time)
  // Subscribers see pino's arguments: the merging object is {} when there was none.
  const context = { instance: this, arguments: [obj ?? {}, msg, level, time] }
  return asJsonChannel.traceSync(buildLine, context, this, obj, msg, level, time)
}

function buildLine(
  this: LoggerState,
  obj: MergingObject | null | undefined,
  msg: unknown,
  level: number,
  time: string,
): string {
  const serializers = this[serializersSym]
  const stringifiers = this[redactStringifiersSym]
  const safe = this[stringifySafeSym]
  const messageKey = this[messageKeySym]
  let data: string = this[lsCacheSym][level] + time + this[chindingsSym]
  const lineContext = this[lineContextSym]
  if (lineContext !== undefined) data += lineContext(this)

  const formatLog = this[formattersSym].log
  // A direct `logger[asJsonSym](undefined, ...)` hands undefined on to the formatter, as pino does.
  if (formatLog !== undefined) obj = formatLog((obj === null ? {} : obj) as MergingObject)

  let props = ''
  if (obj !== null && obj !== undefined) {
    const errorKey = this[errorKeySym]
    const wildcardStringifier: Stringifier | undefined =
      stringifiers === null ? undefined : stringifiers[wildcardFirstSym]
    for (const key in obj) {
      let encoded: string | undefined
      try {
        let value = obj[key]
        if (value === undefined || !hasOwn.call(obj, key)) continue
        // pino writes a `msg` property and the message argument both: the argument comes last.
        const serializer = serializers[key]
        if (serializer) value = serializer(value)
        else if (key === errorKey && serializers.err) value = serializers.err(value)
        const stringifier = stringifiers === null ? undefined : stringifiers[key] || wildcardStringifier
        encoded = encodeValue(value, stringifier, safe)
      } catch (err) {
        // A getter, serializer or redactor that throws costs this one value, not the line. Nothing
        // of the value is written, so a failed redaction cannot leak what it was meant to hide.
        reportLogFailure(err)
        encoded = unserializable(err)
      }
      if (encoded === undefined) continue
      props += ',' + quoteString(key) + ':' + encoded
    }
  }

  let msgPart = ''
  if (msg !== undefined) {
    let encoded: string | undefined
    try {
      const serializer = serializers[messageKey]
      const value = serializer ? serializer(msg) : msg
      const stringifier = stringifiers === null ? undefined : stringifiers[messageKey] || stringifiers[wildcardFirstSym]
      encoded = encodeMessage(value, stringifier, safe)
    } catch (err) {
      reportLogFailure(err)
      encoded = unserializable(err)
    }
    if (encoded !== undefined) msgPart = this[messageKeyStrSym] + encoded
  }

  const nestedKeyStr = this[nestedKeyStrSym]
  if (nestedKeyStr !== '' && props !== '') {
    data += nestedKeyStr + props.slice(1) + '}'
  } else {
    data += props
  }
  return data + msgPart + this[endSym]
}

/** A JSON string that stands in for a value that could not be encoded. */
export function unserializable(err: unknown): string {
  return quoteString('[unable to serialize: ' + describeError(err) + ']')
}

function describeError(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err)
  } catch {
    return 'unknown error'
  }
}

/** When building the line throws (a mixin or formatter broke its contract), still say something. */
function fallbackLine(logger: LoggerState, msg: unknown, level: number, time: string, err: unknown): string {
  let line = (logger[lsCacheSym][level] ?? '{"level":' + level) + time + logger[chindingsSym]
  if (typeof msg === 'string') line += logger[messageKeyStrSym] + quoteString(msg)
  return line + ',"logxError":' + quoteString('line could not be serialized: ' + describeError(err)) + logger[endSym]
}

/** The log call itself failed before a line existed (e.g. a logMethod hook threw): write what is known. */
export function writeFailedCall(logger: LoggerState, level: number, msg: unknown, err: unknown): void {
  reportLogFailure(err)
  try {
    const line = fallbackLine(logger, msg, level, logger[timeSym](), err)
    logger[streamSym].write(line)
  } catch {
    // Nothing more can be done without throwing into the app.
  }
}

export function write(this: LoggerState, input: unknown, msg: unknown, level: number): void {
  const time = this[timeSym]()
  const mixin = this[mixinSym]
  let obj: MergingObject | null
  if (input === null || input === undefined) {
    obj = mixin === undefined ? null : {}
  } else if (input instanceof Error) {
    obj = { [this[errorKeySym]]: input }
    if (msg === undefined) msg = input.message
  } else {
    // Any other value is taken as the merging object, as pino takes it: a primitive has no keys.
    obj = input as MergingObject
    if (msg === undefined && obj[this[messageKeySym]] === undefined) {
      const err = obj[this[errorKeySym]] as { message?: unknown } | null | undefined
      if (err) msg = err.message
    }
  }

  let line: string
  try {
    if (mixin !== undefined) {
      const strategy = this[mixinMergeStrategySym] ?? defaultMixinMergeStrategy
      // With a mixin, obj is never null: a call without a merging object got `{}` above.
      obj = strategy(obj as MergingObject, mixin(obj as MergingObject, level, this)) as MergingObject
    }
    line = this[asJsonSym](obj, msg, level, time)
  } catch (err) {
    reportLogFailure(err)
    line = fallbackLine(this, msg, level, time, err)
  }

  const stream = this[streamSym]
  if ((stream as MetadataFlags)[needsMetadataGsym] === true || (stream as MetadataFlags)[pinoMetadataSym] === true) {
    stream.lastLevel = level
    // Redacted values must not leak through the metadata protocol either.
    const redaction = this[redactSym]
    stream.lastObj = obj === null || obj === undefined ? {} : redaction ? redaction.redactObject(obj) : obj
    stream.lastMsg = msg
    stream.lastTime = time.slice(this[timeSliceIndexSym])
    stream.lastLogger = this
  }
  const streamWrite = this[hooksSym].streamWrite
  try {
    stream.write(streamWrite === undefined ? line : streamWrite(line))
  } catch (err) {
    // A destroyed or failing destination must not turn a log call into a crash.
    reportLogFailure(err)
  }
}
