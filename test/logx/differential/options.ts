// Option sets as printable recipes: every option of the spec and of pino's documentation, each
// function option picked by name from a catalog, built per library by `buildOptions`.
import fc from 'fast-check'
import { KEYS, STRINGS } from './values'

/** What the harness needs of pino or logx. */
export interface Library {
  name: 'pino' | 'logx'
  factory: (options: object, destination: object) => any
  stdSerializers: Record<string, (value: any) => unknown>
  stdTimeFunctions: Record<string, () => string>
}

type Fn = (...args: any[]) => unknown

const mixins: Record<string, (lib: Library) => Fn> = {
  constant: () => () => ({ mixed: 1 }),
  levelAndKeys: () => (obj: object, level: number) => ({ lvl: level, keys: Object.keys(obj ?? {}).join() }),
  sameKeys: () => () => ({ a: 'mixin', msg: 'from mixin', err: 'mixin err' }),
  empty: () => () => ({}),
  loggerLevel: () => (_obj: object, _level: number, logger: any) => ({ current: logger.level }),
}

const mergeStrategies: Record<string, (lib: Library) => Fn> = {
  mixinWins: () => (merge: object, mixin: object) => ({ ...merge, ...mixin }),
  mergeWins: () => (merge: object, mixin: object) => Object.assign({}, mixin, merge),
  nested: () => (merge: object, mixin: object) => ({ ...merge, mixin }),
}

const levelFormatters: Record<string, (lib: Library) => Fn> = {
  label: () => (label: string) => ({ level: label }),
  severity: () => (label: string, n: number) => ({ severity: String(label).toUpperCase(), n }),
  keepNumber: () => (_label: string, n: number) => ({ level: n, extra: 'x' }),
}

const bindingsFormatters: Record<string, (lib: Library) => Fn> = {
  pidOnly: () => (b: any) => ({ pid: b.pid }),
  spreadExtra: () => (b: any) => ({ ...b, extra: 1 }),
  none: () => () => ({}),
  renamed: () => (b: any) => ({ host: b.hostname, ...b, hostname: undefined }),
}

const logFormatters: Record<string, (lib: Library) => Fn> = {
  identity: () => (o: any) => o,
  flagged: () => (o: any) => ({ ...o, formatted: true }),
  wrapped: () => (o: any) => ({ wrapped: o }),
}

function safeErr(e: any): unknown {
  return e !== null && typeof e === 'object' ? { kind: String(e.constructor?.name), m: typeof e.message } : e
}

export const serializerSets: Record<string, (lib: Library) => Record<string, Fn | null | undefined>> = {
  errWithCause: (lib) => ({ err: lib.stdSerializers.errWithCause as Fn }),
  customErr: () => ({ err: safeErr }),
  errOff: () => ({ err: null }),
  errUndefined: () => ({ err: undefined }),
  req: (lib) => ({ req: lib.stdSerializers.req as Fn, res: lib.stdSerializers.res as Fn }),
  user: () => ({ user: (u: any) => (u !== null && typeof u === 'object' ? { id: typeof u.id } : 'u:' + typeof u) }),
  msg: () => ({ msg: (m: any) => (typeof m === 'string' ? m.toUpperCase() : typeof m) }),
  arrayify: () => ({ a: (v: unknown) => [typeof v], secret: () => undefined }),
  stdErr: (lib) => ({ error: lib.stdSerializers.err as Fn, e: lib.stdSerializers.err as Fn }),
}

export const censors: Record<string, Fn> = {
  stars: () => '***',
  pathJoin: (_value: unknown, path: string[]) => path.join('/'),
  typeOf: (value: unknown) => typeof value,
  undef: () => undefined,
}

const logMethods: Record<string, (lib: Library) => Fn> = {
  passthrough: () =>
    function (this: any, args: unknown[], method: Fn) {
      return method.apply(this, args)
    },
  prefix: () =>
    function (this: any, args: unknown[], method: Fn, level: number) {
      if (typeof args[0] === 'string') args[0] = 'L' + level + ' ' + args[0]
      return method.apply(this, args)
    },
  swap: () =>
    function (this: any, args: unknown[], method: Fn) {
      if (args.length >= 2 && typeof args[0] === 'string')
        return method.apply(this, [args[1], args[0], ...args.slice(2)])
      return method.apply(this, args)
    },
  swallow: () => () => undefined,
  twice: () =>
    function (this: any, args: unknown[], method: Fn) {
      method.apply(this, args)
      method.apply(this, ['again'])
    },
}

const streamWrites: Record<string, (lib: Library) => Fn> = {
  upper: () => (s: string) => s.toUpperCase(),
  tagged: () => (s: string) => s.replace('{', '{"w":1,'),
}

const timestamps: Record<string, (lib: Library) => unknown> = {
  true: () => true,
  false: () => false,
  undefined: () => undefined,
  epochTime: (lib) => lib.stdTimeFunctions.epochTime,
  unixTime: (lib) => lib.stdTimeFunctions.unixTime,
  nullTime: (lib) => lib.stdTimeFunctions.nullTime,
  isoTime: (lib) => lib.stdTimeFunctions.isoTime,
  isoTimeNano: (lib) => lib.stdTimeFunctions.isoTimeNano,
  custom: () => () => ',"time":"custom"',
  other: () => () => ',"at":1',
}

const levelComparisons: Record<string, (lib: Library) => unknown> = {
  ASC: () => 'ASC',
  DESC: () => 'DESC',
  everything: () => () => true,
  exact: () => (current: number, expected: number) => current === expected,
}

const onChilds: Record<string, (lib: Library) => Fn> = {
  logs: () => (child: any) => {
    // Without an info method (only custom levels) both throw the same TypeError, unmarked.
    if (typeof child.info !== 'function') return child.info('child made')
    try {
      child.info('child made')
    } catch (err) {
      // Marked, so that a log call that throws in pino is told apart from child() throwing.
      throw Object.assign(new Error('a log call in onChild threw'), { fromLogCall: true, cause: err })
    }
  },
  quiet: () => () => undefined,
}

export const REDACT_PATHS = [
  'secret',
  'a.b',
  'user.password',
  '*.token',
  'arr[0]',
  'nested.*.x',
  '["with space"]',
  'msg',
  'err.message',
  'a',
  'b.*',
  'req.headers["x-secret"]',
  '*',
  'payload.secret',
  'err',
  'user',
  'level',
  'hostname',
  'name',
] as const

export type RedactRecipe =
  | { kind: 'list'; paths: string[] }
  | { kind: 'object'; paths: string[]; censor?: string | null | number; censorFn?: string; remove?: boolean }

const pathsArb = fc.subarray([...REDACT_PATHS], { minLength: 0, maxLength: 4 })

export const redactArb: fc.Arbitrary<RedactRecipe> = fc.oneof(
  pathsArb.map((paths): RedactRecipe => ({ kind: 'list', paths })),
  fc
    .record(
      {
        paths: pathsArb,
        censor: fc.constantFrom<string | null | number>('[gone]', '', 'x"y', null, 0),
        censorFn: fc.constantFrom(...Object.keys(censors)),
        remove: fc.boolean(),
      },
      { requiredKeys: ['paths'] },
    )
    .map((r): RedactRecipe => ({ kind: 'object', ...r })),
)

export function buildRedact(recipe: RedactRecipe): unknown {
  if (recipe.kind === 'list') return [...recipe.paths]
  const out: Record<string, unknown> = { paths: [...recipe.paths] }
  if ('censor' in recipe) out.censor = recipe.censor
  if (recipe.censorFn !== undefined) out.censor = censors[recipe.censorFn]
  if (recipe.remove !== undefined) out.remove = recipe.remove
  return out
}

export interface LevelsRecipe {
  customLevels?: Record<string, number>
  useOnlyCustomLevels?: boolean
  level?: string | number
}

const CUSTOM_LEVEL_SETS: Array<Record<string, number>> = [
  { notice: 35 },
  { trace: 1 },
  { verbose: 5, critical: 70 },
  { info: 31, audit: 45 },
  { low: 1, high: 2 },
]

export const levelsArb: fc.Arbitrary<LevelsRecipe> = fc
  .record(
    {
      customLevels: fc.constantFrom(...CUSTOM_LEVEL_SETS),
      useOnlyCustomLevels: fc.boolean(),
      level: fc.constantFrom<string | number>(
        'trace',
        'debug',
        'info',
        'warn',
        'error',
        'fatal',
        'silent',
        'INFO',
        30,
        35,
      ),
    },
    { requiredKeys: [] },
  )
  .map((r) => {
    // Only custom levels need a level among them; pick one, as a user must.
    if (r.useOnlyCustomLevels === true && r.customLevels !== undefined) {
      const names = Object.keys(r.customLevels)
      const level = typeof r.level === 'string' && names.includes(r.level) ? r.level : names[names.length - 1]
      return { ...r, level }
    }
    return r
  })

type Picked = Record<string, unknown>

function pick<T extends string>(catalog: Record<T, unknown>): fc.Arbitrary<T> {
  return fc.constantFrom(...(Object.keys(catalog) as T[]))
}

/** The recipe of one option set; keys absent from the record are absent from the options. */
export const optionsArb: fc.Arbitrary<Picked> = fc.record(
  {
    name: fc.constantFrom(...STRINGS.slice(0, 4)),
    levels: levelsArb,
    base: fc.constantFrom<unknown>('undefined', 'null', { app: 'x', n: 2 }, { pid: 1, hostname: 'h' }, {}),
    messageKey: fc.constantFrom('message', 'm', 'msg', 'time'),
    errorKey: fc.constantFrom('error', 'e', 'err', 'msg'),
    nestedKey: fc.constantFrom('payload', 'n', null),
    mixin: pick(mixins),
    mixinMergeStrategy: pick(mergeStrategies),
    formatLevel: pick(levelFormatters),
    formatBindings: pick(bindingsFormatters),
    formatLog: pick(logFormatters),
    redact: redactArb,
    serializers: fc.subarray(Object.keys(serializerSets), { minLength: 1, maxLength: 3 }),
    logMethod: pick(logMethods),
    streamWrite: pick(streamWrites),
    timestamp: pick(timestamps),
    crlf: fc.boolean(),
    depthLimit: fc.constantFrom(1, 2, 3, 10),
    edgeLimit: fc.constantFrom(1, 2, 3, 50),
    msgPrefix: fc.constantFrom('[app] ', '', '%s '),
    onChild: pick(onChilds),
    enabled: fc.boolean(),
    levelComparison: pick(levelComparisons),
  },
  { requiredKeys: [] },
)

/** The options object a recipe describes, for one library. */
export function buildOptions(recipe: Picked, lib: Library): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const r = recipe as Record<string, any>
  if ('name' in r) out.name = r.name
  if (r.levels !== undefined) Object.assign(out, r.levels)
  if ('base' in r) out.base = r.base === 'undefined' ? undefined : r.base === 'null' ? null : { ...r.base }
  for (const key of [
    'messageKey',
    'errorKey',
    'nestedKey',
    'crlf',
    'depthLimit',
    'edgeLimit',
    'msgPrefix',
    'enabled',
  ]) {
    if (key in r) out[key] = r[key]
  }
  if (r.mixin !== undefined) out.mixin = mixins[r.mixin]!(lib)
  if (r.mixinMergeStrategy !== undefined) out.mixinMergeStrategy = mergeStrategies[r.mixinMergeStrategy]!(lib)
  const formatters: Record<string, unknown> = {}
  if (r.formatLevel !== undefined) formatters.level = levelFormatters[r.formatLevel]!(lib)
  if (r.formatBindings !== undefined) formatters.bindings = bindingsFormatters[r.formatBindings]!(lib)
  if (r.formatLog !== undefined) formatters.log = logFormatters[r.formatLog]!(lib)
  if (Object.keys(formatters).length > 0) out.formatters = formatters
  if (r.redact !== undefined) out.redact = buildRedact(r.redact)
  if (r.serializers !== undefined) out.serializers = buildSerializers(r.serializers, lib)
  const hooks: Record<string, unknown> = {}
  if (r.logMethod !== undefined) hooks.logMethod = logMethods[r.logMethod]!(lib)
  if (r.streamWrite !== undefined) hooks.streamWrite = streamWrites[r.streamWrite]!(lib)
  if (Object.keys(hooks).length > 0) out.hooks = hooks
  if (r.timestamp !== undefined) out.timestamp = timestamps[r.timestamp]!(lib)
  if (r.onChild !== undefined) out.onChild = onChilds[r.onChild]!(lib)
  if (r.levelComparison !== undefined) out.levelComparison = levelComparisons[r.levelComparison]!(lib)
  return out
}

export function buildSerializers(names: string[], lib: Library): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of names) Object.assign(out, serializerSets[name]!(lib))
  return out
}

export const KEY_POOL = KEYS
