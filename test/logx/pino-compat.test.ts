// Differential test: the same calls on pino and on logx must produce the same lines.
// This is the promise to a pino user switching over, checked case by case.
import { describe, expect, it } from 'vitest'
import pino from 'pino'
import logx from 'logx'
import { createSink } from '../helpers/sink'

type AnyLogger = Record<string, any>
type Scenario = (log: AnyLogger) => void

const fixed = { timestamp: false, base: { pid: 1, hostname: 'host' } }

function run(factory: (options: object, dest: object) => AnyLogger, options: object, scenario: Scenario): string[] {
  const sink = createSink()
  const logger = factory({ ...fixed, ...options }, sink)
  scenario(logger)
  return sink.lines
}

function compare(options: object, scenario: Scenario, exact = true): void {
  // One call site for both, so that errors created by the scenario carry identical stacks.
  const [expected, actual] = [pino, logx].map((factory) => run(factory as any, options, scenario)) as [
    string[],
    string[],
  ]
  expect(actual.length).toBe(expected.length)
  expect(actual.map((l) => JSON.parse(l))).toEqual(expected.map((l) => JSON.parse(l)))
  if (exact) expect(actual).toEqual(expected)
}

const circular: Record<string, unknown> = { name: 'loop' }
circular.self = circular

// Values that cannot be read: pino gives up on the whole value with its placeholder, and so does logx.
const throwing = (message: string): never => {
  throw new Error(message)
}
const withThrowingGetter = (): object => ({
  ok: 1,
  get bad() {
    return throwing('getter')
  },
})
const throwingTraps: Array<[string, ProxyHandler<object>]> = [
  ['get', { get: () => throwing('get trap') }],
  ['ownKeys', { ownKeys: () => throwing('ownKeys trap') }],
  ['getOwnPropertyDescriptor', { getOwnPropertyDescriptor: () => throwing('descriptor trap') }],
  ['has', { has: () => throwing('has trap') }],
]

const cases: Array<[string, object, Scenario, boolean?]> = [
  ['a message', {}, (l) => l.info('hello world')],
  [
    'every level',
    { level: 'trace' },
    (l) => ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].forEach((m) => l[m](m)),
  ],
  [
    'levels below the threshold are skipped',
    { level: 'warn' },
    (l) => {
      l.info('no')
      l.warn('yes')
    },
  ],
  ['a merging object', {}, (l) => l.info({ a: 1, b: { c: [1, 'two', null] } })],
  ['object and message', {}, (l) => l.info({ a: 1 }, 'with object')],
  ['message wins over msg in the object', {}, (l) => l.info({ msg: 'from object' }, 'from argument'), false],
  ['msg from the object when no message', {}, (l) => l.info({ msg: 'from object' })],
  ['an Error is wrapped under err and gives the message', {}, (l) => l.error(new Error('boom'))],
  ['an Error with a message', {}, (l) => l.error(new Error('boom'), 'context')],
  ['an err property gives the message', {}, (l) => l.error({ err: new TypeError('typed') })],
  ['err property and explicit message', {}, (l) => l.error({ err: new Error('x') }, 'explicit')],
  [
    '%s %d %i %f %j %o %O interpolation',
    {},
    (l) => l.info('s=%s d=%d i=%i f=%f j=%j o=%o O=%O', 'str', 42.5, 42.5, 1.5, { a: 1 }, [1], 'q'),
  ],
  ['%% and missing arguments', {}, (l) => l.info('100%% of %s and %s', 'one')],
  ['extra arguments are dropped', {}, (l) => l.info('no placeholders', 'dropped', 3)],
  ['object, then template with arguments', {}, (l) => l.info({ a: 1 }, 'hi %s', 'there')],
  ['null for %d is left alone', {}, (l) => l.info('n=%d', null)],
  ['a function for %o', {}, (l) => l.info('fn=%o', function named() {})],
  ['null alone', {}, (l) => l.info(null)],
  ['nothing at all', {}, (l) => l.info()],
  ['a number alone', {}, (l) => l.info(42)],
  ['undefined then a message', {}, (l) => l.info(undefined, 'after undefined')],
  ['null then a message', {}, (l) => l.info(null, 'after null')],
  ['an object as the message', {}, (l) => l.info({ a: 1 }, { b: 2 })],
  [
    'strings that need escaping',
    {},
    (l) => l.info({ s: 'quote " backslash \\ newline \n tab \t nul \u0000' }, 'line\nbreak "q"'),
  ],
  ['non-finite numbers become null', {}, (l) => l.info({ nan: NaN, inf: Infinity, n: -0 })],
  ['undefined and function values are left out', {}, (l) => l.info({ u: undefined, f: () => 1, keep: true })],
  ['symbols are left out', {}, (l) => l.info({ s: Symbol('x'), [Symbol('k')]: 1, keep: 1 })],
  ['toJSON is honoured', {}, (l) => l.info({ d: new Date(0), custom: { toJSON: () => 'custom' } })],
  ['a BigInt', {}, (l) => l.info({ big: 12345678901234567890n })],
  ['a circular object', {}, (l) => l.info({ circular }), false],
  ['a child', {}, (l) => l.child({ a: 'property' }).info('hello')],
  ['a child of a child', {}, (l) => l.child({ a: 1 }).child({ b: 2 }).info({ c: 3 }, 'deep')],
  [
    'child with its own level',
    {},
    (l) => {
      const c = l.child({ a: 1 }, { level: 'error' })
      c.warn('no')
      c.error('yes')
    },
  ],
  [
    'child serializers',
    {},
    (l) => l.child({ a: 1 }, { serializers: { user: (u: any) => u.name } }).info({ user: { name: 'ann', pw: 'x' } }),
  ],
  [
    'root serializers apply to bindings and objects',
    { serializers: { user: (u: any) => u.id } },
    (l) => l.child({ user: { id: 7 } }).info({ user: { id: 8 } }),
  ],
  ['name', { name: 'app' }, (l) => l.info('named')],
  [
    'custom levels',
    { customLevels: { notice: 35 }, level: 'notice' },
    (l) => {
      l.info('no')
      l.notice('yes')
      l.warn('yes')
    },
  ],
  [
    'only custom levels',
    { customLevels: { low: 1, high: 2 }, useOnlyCustomLevels: true, level: 'high' },
    (l) => {
      l.low('no')
      l.high('yes')
    },
  ],
  ['messageKey', { messageKey: 'message' }, (l) => l.info('custom key')],
  ['errorKey', { errorKey: 'error' }, (l) => l.error(new Error('under error'))],
  ['nestedKey', { nestedKey: 'payload' }, (l) => l.info({ a: 1, b: 2 }, 'nested')],
  [
    'mixin',
    { mixin: (obj: any, level: number) => ({ fromMixin: level, a: 'mixin' }) },
    (l) => l.info({ a: 'object' }, 'm'),
  ],
  [
    'mixinMergeStrategy',
    { mixin: () => ({ a: 'mixin' }), mixinMergeStrategy: (o: any, m: any) => Object.assign(o, m) },
    (l) => l.info({ a: 'object' }),
  ],
  [
    'formatters.level and log',
    {
      formatters: {
        level: (label: string) => ({ severity: label.toUpperCase() }),
        log: (o: any) => ({ ...o, formatted: true }),
      },
    },
    (l) => l.warn({ a: 1 }, 'f'),
  ],
  ['crlf', { crlf: true }, (l) => l.info('windows')],
  ['no base', { base: null }, (l) => l.info('bare')],
  ['base with extra keys', { base: { service: 'api' } }, (l) => l.info('based')],
  [
    'msgPrefix',
    { msgPrefix: '[app] ' },
    (l) => {
      l.info('one')
      l.child({}, { msgPrefix: '[db] ' }).info('two')
    },
  ],
  [
    'logMethod hook reorders arguments',
    {
      hooks: {
        logMethod(this: any, args: any[], method: any) {
          if (args.length >= 2) {
            const [a, b, ...rest] = args
            return method.apply(this, [b, a, ...rest])
          }
          return method.apply(this, args)
        },
      },
    },
    (l) => l.info('msg first', { a: 1 }),
  ],
  [
    'depthLimit and edgeLimit on a circular object',
    { depthLimit: 2, edgeLimit: 3 },
    (l) => l.info({ c: { circular, list: [1, 2, 3], deep: { a: { b: { c: 1 } } }, x: 1, y: 2 } }),
    false,
  ],
  [
    'an error with a cause and extra fields',
    {},
    (l) => {
      const e: any = new Error('outer', { cause: new Error('inner') })
      e.code = 'E_OUT'
      l.error(e)
    },
  ],
  ['an AggregateError', {}, (l) => l.error(new AggregateError([new Error('a'), new RangeError('b')], 'many'))],
  [
    'setBindings',
    {},
    (l) => {
      const c = l.child({ a: 1 })
      c.setBindings({ b: 2 })
      c.info('x')
    },
  ],
  [
    'silent level',
    { level: 'silent' },
    (l) => {
      l.fatal('no')
      l.silent('no')
    },
  ],
  ['enabled false', { enabled: false }, (l) => l.fatal('no')],
  ['a nested value with a throwing getter', {}, (l) => l.info({ a: { inner: withThrowingGetter() }, keep: 1 }, 'm')],
  [
    'a nested array element with a throwing getter',
    {},
    (l) => l.info({ list: Object.defineProperty([1, 2], 0, { get: () => throwing('index') }) }),
  ],
  ['a nested toJSON that throws', {}, (l) => l.info({ a: { toJSON: () => throwing('toJSON') } })],
  [
    'a circular value with a throwing getter',
    {},
    (l) => {
      const o: any = withThrowingGetter()
      o.self = o
      l.info({ o })
    },
  ],
  [
    'a BigInt beside a throwing getter',
    {},
    (l) =>
      l.info({
        a: {
          n: 1n,
          get bad() {
            return throwing('after bigint')
          },
        },
      }),
  ],
  ...throwingTraps.map(([trap, handler]): [string, object, Scenario] => [
    `a nested Proxy whose ${trap} trap throws`,
    {},
    (l) => l.info({ p: new Proxy({ x: 1 }, handler) }, 'proxy'),
  ]),
  ['a message object with a throwing getter', {}, (l) => l.info({ a: 1 }, withThrowingGetter())],
  [
    '%j and %o of values with throwing getters',
    {},
    (l) => l.info('j=%j o=%o', withThrowingGetter(), new Proxy({}, throwingTraps[1]![1])),
  ],
  ['a child binding with a throwing getter', {}, (l) => l.child({ ctx: withThrowingGetter() }).info('child')],
  [
    'a redacted key whose value has a throwing getter elsewhere',
    { redact: ['user'] },
    (l) => l.info({ user: withThrowingGetter(), other: { x: withThrowingGetter() } }),
  ],
]

describe('pino compatibility: identical lines for identical calls', () => {
  for (const [title, options, scenario, exact] of cases) {
    it(title, () => compare(options, scenario, exact ?? true))
  }

  it('the first argument may be the destination', () => {
    const a = createSink()
    const b = createSink()
    ;(pino as any)({ ...fixed }, a).info('x')
    logx({ ...fixed } as any, b as any).info('x')
    expect(b.lines).toEqual(a.lines)
  })
})
