// Internal state of a logger lives behind these symbols so that user bindings can never collide with it.
// Every key of pino's `pino.symbols` is here under the same name: ecosystem packages reach into a
// logger with them (pino-http calls `logger[stringifySym]`, fastify reads `logger[serializersSym]`),
// and `pino-symbols.ts` makes a logger answer to pino's own copies of them too.
// The `Symbol.for` ones are part of the public protocol and must match across copies of the package.

export const setLevelSym = Symbol('logx.setLevel')
export const getLevelSym = Symbol('logx.getLevel')
export const levelValSym = Symbol('logx.levelVal')
export const levelCompSym = Symbol('logx.levelComp')
/** Exported because pino exports it; pino itself no longer reads it, and neither does logx. */
export const useLevelLabelsSym = Symbol('logx.useLevelLabels')
export const useOnlyCustomLevelsSym = Symbol('logx.useOnlyCustomLevels')
export const mixinSym = Symbol('logx.mixin')
export const mixinMergeStrategySym = Symbol('logx.mixinMergeStrategy')
export const lsCacheSym = Symbol('logx.lsCache')
export const chindingsSym = Symbol('logx.chindings')
export const asJsonSym = Symbol('logx.asJson')
export const writeSym = Symbol('logx.write')
export const timeSym = Symbol('logx.time')
export const timeSliceIndexSym = Symbol('logx.timeSliceIndex')
export const streamSym = Symbol('logx.stream')
export const stringifySym = Symbol('logx.stringify')
export const stringifySafeSym = Symbol('logx.stringifySafe')
export const stringifiersSym = Symbol('logx.stringifiers')
export const redactFmtSym = Symbol('logx.redactFmt')
export const wildcardFirstSym = Symbol('logx.wildcardFirst')
export const endSym = Symbol('logx.end')
export const formatOptsSym = Symbol('logx.formatOpts')
export const messageKeySym = Symbol('logx.messageKey')
export const messageKeyStrSym = Symbol('logx.messageKeyStr')
export const errorKeySym = Symbol('logx.errorKey')
export const nestedKeySym = Symbol('logx.nestedKey')
export const nestedKeyStrSym = Symbol('logx.nestedKeyStr')
export const msgPrefixSym = Symbol('logx.msgPrefix')
export const onChildSym = Symbol('logx.onChild')
export const redactSym = Symbol('logx.redact')
/** The redaction's per-key stringifiers, or null without redaction (stringifiersSym reads `{}` then, as pino's). */
export const redactStringifiersSym = Symbol('logx.redactStringifiers')
/** `(logger) => ',"key":value...'` for bindings that change per line (asyncContext, otel), or undefined. */
export const lineContextSym = Symbol('logx.lineContext')

// Public, shared across package copies.
export const serializersSym = Symbol.for('logx.serializers')
export const formattersSym = Symbol.for('logx.formatters')
export const hooksSym = Symbol.for('logx.hooks')
export const needsMetadataGsym = Symbol.for('logx.metadata')
export const transportUsesMultistreamSym = Symbol.for('logx.transport.usesMultistream')
