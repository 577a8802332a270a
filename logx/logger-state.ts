// The shape of a logger's internal state, as the write path, the prototype and the level methods
// read it. Types only: nothing here exists at run time, so naming the state costs the log call nothing.
// The symbol keys are the ones logger.ts sets at construction and child() overrides per child.
import type { LevelMapping } from './levels'
import type { Hooks, Serializer } from './option-types'
import type { Redaction, Stringifier } from './redaction'
import type { SafeStringify } from './stringify'
import type {
  asJsonSym,
  chindingsSym,
  endSym,
  errorKeySym,
  formatOptsSym,
  formattersSym,
  getLevelSym,
  hooksSym,
  levelCompSym,
  levelValSym,
  lineContextSym,
  lsCacheSym,
  messageKeyStrSym,
  messageKeySym,
  mixinMergeStrategySym,
  mixinSym,
  msgPrefixSym,
  nestedKeyStrSym,
  nestedKeySym,
  onChildSym,
  redactStringifiersSym,
  redactSym,
  serializersSym,
  setLevelSym,
  streamSym,
  stringifiersSym,
  stringifySafeSym,
  stringifySym,
  timeSliceIndexSym,
  timeSym,
  useOnlyCustomLevelsSym,
  writeSym,
} from './symbols'

/**
 * Where lines go: anything with `write(line)`. The optional members are the ones logx looks for
 * (sonic-boom's flush and state, the metadata protocol's fields, a transport's `emit`). The flags
 * read by symbol are typed where they are read.
 */
export interface WritableDestination {
  write(line: string): unknown
  flush?(cb: (err?: Error | null) => void): void
  flushSync?(): void
  emit?(event: string, ...args: unknown[]): boolean
  _writing?: boolean
  destroyed?: boolean
  lastLevel?: number
  lastObj?: object
  lastMsg?: unknown
  lastTime?: string
  lastLogger?: LoggerState
}

/** `(logger) => ',"key":value...'` for bindings that change per line (asyncContext, otel). */
export type LineContext = (logger: LoggerState) => string

/** The formatters a logger holds: level and bindings always, log when the user gave one. */
export interface LoggerFormatters {
  level: (label: string, value: number) => object
  bindings: (bindings: Record<string, unknown>) => Record<string, unknown>
  log?: (object: Record<string, unknown>) => Record<string, unknown>
}

/** The mixin option: called with the merging object, the level and the logger, per line. */
export type Mixin = (mergeObject: object, level: number, logger: LoggerState) => object
export type MixinMergeStrategy = (mergeObject: object, mixinObject: object) => object

export interface LoggerState {
  /** The level methods (`info`, custom levels...) and whatever else a user hangs on a logger. */
  [key: string]: unknown
  levels: LevelMapping
  level: string
  redact?: unknown
  emit(event: string | symbol, ...args: unknown[]): boolean

  [setLevelSym](level: string | number): void
  [getLevelSym](): string
  [levelValSym]: number
  [levelCompSym]: (current: number, expected: number) => boolean
  [useOnlyCustomLevelsSym]: boolean
  [lsCacheSym]: Record<number, string>
  [chindingsSym]: string
  [lineContextSym]: LineContext | undefined
  [asJsonSym](obj: Record<string, unknown> | null | undefined, msg: unknown, level: number, time: string): string
  [writeSym](input: unknown, msg: unknown, level: number): void
  [stringifySym](value: unknown, safe?: SafeStringify): string | undefined
  [timeSym]: () => string
  [timeSliceIndexSym]: number
  [streamSym]: WritableDestination
  [endSym]: string

  [serializersSym]: Record<string | symbol, Serializer | undefined>
  [formattersSym]: LoggerFormatters
  [hooksSym]: Hooks
  [mixinSym]: Mixin | undefined
  [mixinMergeStrategySym]: MixinMergeStrategy | undefined
  [stringifySafeSym]: SafeStringify
  /** The redaction's per-key stringifiers, or null without redaction. */
  [redactStringifiersSym]: Record<string | symbol, Stringifier | undefined> | null
  [stringifiersSym]: Record<string | symbol, unknown> | null
  [redactSym]: Redaction | null
  [formatOptsSym]: { stringify: (value: unknown) => string | undefined }

  [messageKeySym]: string
  [messageKeyStrSym]: string
  [errorKeySym]: string
  [nestedKeySym]: string | null | undefined
  [nestedKeyStrSym]: string
  [msgPrefixSym]: string | undefined
  [onChildSym]: (this: LoggerState, child: LoggerState) => void
}
