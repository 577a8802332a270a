// pino's ecosystem reaches into a logger with pino's own symbols: pino-http, which requires pino
// itself, calls `logger[pino.symbols.stringifySym]` and reads `logger[pino.symbols.chindingsSym]`;
// fastify reads `logger[Symbol.for('pino.serializers')]`. A logx logger handed to them answers to
// those keys as a pino logger would, with the state logx keeps under its own symbols.
//
// - The registered ones (`Symbol.for('pino.serializers' | 'pino.formatters' | 'pino.hooks')`) are
//   plain accessors on the prototype.
// - pino's other symbols are made by whichever copy of pino a package loaded: there may be several,
//   loaded in any order, after the logger exists, so they cannot be listed in advance. A Proxy at
//   the bottom of the prototype chain recognizes one by its description ('pino.chindings') the first
//   time a lookup reaches it, and installs an accessor for that exact symbol on the prototype, so
//   later lookups of it never reach the Proxy again.
// Below the prototype and above the Proxy sits a copy of EventEmitter.prototype's properties, so a
// logger's own state, its methods and emit()/on() are all found before the Proxy: the log path and
// child() never touch it. (A patch made to EventEmitter.prototype after logx loaded is therefore
// not seen by loggers.) `logger instanceof EventEmitter` still holds, through the Proxy's target.
import { EventEmitter } from 'node:events'
import * as symbols from './symbols'

// pino's private symbol names (their description after 'pino.') -> the logx symbol with that state.
const PRIVATE: Readonly<Record<string, symbol>> = {
  setLevel: symbols.setLevelSym,
  getLevel: symbols.getLevelSym,
  levelVal: symbols.levelValSym,
  levelComp: symbols.levelCompSym,
  useLevelLabels: symbols.useLevelLabelsSym,
  useOnlyCustomLevels: symbols.useOnlyCustomLevelsSym,
  mixin: symbols.mixinSym,
  mixinMergeStrategy: symbols.mixinMergeStrategySym,
  lsCache: symbols.lsCacheSym,
  chindings: symbols.chindingsSym,
  asJson: symbols.asJsonSym,
  write: symbols.writeSym,
  time: symbols.timeSym,
  timeSliceIndex: symbols.timeSliceIndexSym,
  stream: symbols.streamSym,
  stringify: symbols.stringifySym,
  stringifySafe: symbols.stringifySafeSym,
  stringifiers: symbols.stringifiersSym,
  end: symbols.endSym,
  formatOpts: symbols.formatOptsSym,
  messageKey: symbols.messageKeySym,
  errorKey: symbols.errorKeySym,
  nestedKey: symbols.nestedKeySym,
  nestedKeyStr: symbols.nestedKeyStrSym,
  msgPrefix: symbols.msgPrefixSym,
}

const REGISTERED: ReadonlyArray<[symbol, symbol]> = [
  [Symbol.for('pino.serializers'), symbols.serializersSym],
  [Symbol.for('pino.formatters'), symbols.formattersSym],
  [Symbol.for('pino.hooks'), symbols.hooksSym],
]

type State = Record<symbol, unknown>

function alias(prototype: object, foreign: symbol, own: symbol): void {
  Object.defineProperty(prototype, foreign, {
    configurable: true,
    get(this: State) {
      return this[own]
    },
    set(this: State, value: unknown) {
      this[own] = value
    },
  })
}

/** Makes every object inheriting from `prototype` answer to pino's symbols; `prototype` must not inherit yet. */
export function answerToPinoSymbols(prototype: object): void {
  for (const [foreign, own] of REGISTERED) alias(prototype, foreign, own)

  const adopt = (key: string | symbol): symbol | undefined => {
    if (typeof key !== 'symbol') return undefined
    const description = key.description
    if (description === undefined || !description.startsWith('pino.') || Symbol.keyFor(key) !== undefined)
      return undefined
    const own = PRIVATE[description.slice(5)]
    if (own !== undefined) alias(prototype, key, own)
    return own
  }
  const bottom = new Proxy(Object.create(EventEmitter.prototype) as object, {
    get(target, key, receiver) {
      const own = adopt(key)
      return own === undefined ? (Reflect.get(target, key, receiver) as unknown) : (receiver as State)[own]
    },
    set(target, key, value, receiver) {
      const own = adopt(key)
      if (own === undefined) return Reflect.set(target, key, value, receiver)
      ;(receiver as State)[own] = value
      return true
    },
    has(target, key) {
      return adopt(key) !== undefined || Reflect.has(target, key)
    },
  })
  const eventEmitterLayer = Object.create(bottom) as object
  Object.defineProperties(eventEmitterLayer, Object.getOwnPropertyDescriptors(EventEmitter.prototype))
  Object.setPrototypeOf(prototype, eventEmitterLayer)
}
