// Values a log call can carry, as printable recipes: fast-check shrinks and prints the recipe,
// and each library gets its own freshly built copy, so neither can see what the other mutated.
import fc from 'fast-check'

export type Recipe =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'big'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' }
  | { t: 'undef' }
  | { t: 'sym'; v: string }
  | { t: 'fn'; v: string }
  | { t: 'date'; v: number }
  | { t: 'buf'; v: number[] }
  | { t: 'typed'; v: number[] }
  | { t: 'map' }
  | { t: 'arr'; items: Recipe[] }
  | { t: 'obj'; entries: Array<[string, Recipe]>; circular?: boolean; nullProto?: boolean }
  | { t: 'json'; v: Recipe }
  | { t: 'err'; kind: ErrorKind; msg: string; cause?: Recipe; extra: Array<[string, Recipe]> }
  | { t: 'agg'; msg: string; errors: Recipe[] }
  | { t: 'req'; url: string }
  | { t: 'res'; status: number }

type ErrorKind = 'Error' | 'TypeError' | 'RangeError' | 'Custom'

class CustomError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'CustomError'
  }
}

export const KEYS = [
  'a',
  'b',
  'msg',
  'message',
  'err',
  'error',
  'level',
  'time',
  'pid',
  'hostname',
  'name',
  'secret',
  'token',
  'user',
  'password',
  'nested',
  'arr',
  'payload',
  'req',
  'res',
  'v',
  'with space',
  'q"uote',
  'é',
  '0',
  '10',
  '2',
  'constructor',
  'serializers',
  'customLevels',
  'formatters',
] as const

export const STRINGS = [
  'hello',
  '',
  'with "quotes"',
  'back\\slash',
  'new\nline',
  'tab\tand\u0001ctl',
  'unicode é ☃ 😀',
  '\u2028sep',
  'lone \ud800 surrogate',
  '[Redacted]',
  'x'.repeat(101),
  '"' + 'y'.repeat(90) + '\\',
  'undefined',
  'null',
] as const

const TEMPLATE_PIECES = [
  'a ',
  ' b',
  '%s',
  '%d',
  '%i',
  '%f',
  '%j',
  '%o',
  '%O',
  '%%',
  '%x',
  '%',
  '%c',
  'text',
  '"',
  '\n',
] as const

export const templateArb: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...TEMPLATE_PIECES), { minLength: 1, maxLength: 6 })
  .map((pieces) => pieces.join(''))

export const stringArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...STRINGS) },
  { weight: 2, arbitrary: templateArb },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
)

const keyArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
)

const numberArb = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0, -0, 1.5, -2.25, NaN, Infinity, -Infinity, 1e21, 2 ** 53, 0.1),
  fc.double({ noNaN: false }),
)

const leafArb: fc.Arbitrary<Recipe> = fc.oneof(
  { weight: 5, arbitrary: stringArb.map((v): Recipe => ({ t: 'str', v })) },
  { weight: 4, arbitrary: numberArb.map((v): Recipe => ({ t: 'num', v })) },
  {
    weight: 1,
    arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((v): Recipe => ({ t: 'big', v: String(v) })),
  },
  { weight: 2, arbitrary: fc.boolean().map((v): Recipe => ({ t: 'bool', v })) },
  { weight: 2, arbitrary: fc.constant<Recipe>({ t: 'null' }) },
  { weight: 2, arbitrary: fc.constant<Recipe>({ t: 'undef' }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'tag').map((v): Recipe => ({ t: 'sym', v })) },
  { weight: 1, arbitrary: fc.constantFrom('', 'named').map((v): Recipe => ({ t: 'fn', v })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, 1_700_000_000_123, -1, 253_402_300_800_000).map((v): Recipe => ({ t: 'date', v })),
  },
  { weight: 1, arbitrary: fc.array(fc.nat(255), { maxLength: 4 }).map((v): Recipe => ({ t: 'buf', v })) },
  { weight: 1, arbitrary: fc.array(fc.nat(255), { maxLength: 3 }).map((v): Recipe => ({ t: 'typed', v })) },
  { weight: 1, arbitrary: fc.constant<Recipe>({ t: 'map' }) },
  { weight: 1, arbitrary: fc.constantFrom('/a', '/b?c=1').map((url): Recipe => ({ t: 'req', url })) },
  { weight: 1, arbitrary: fc.constantFrom(200, 500).map((status): Recipe => ({ t: 'res', status })) },
)

const errorKindArb = fc.constantFrom<ErrorKind>('Error', 'TypeError', 'RangeError', 'Custom')

export const { value: valueArb } = fc.letrec<{ value: Recipe }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'xsmall', maxDepth: 3, withCrossShrink: true },
    { weight: 6, arbitrary: leafArb },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }).map((items): Recipe => ({ t: 'arr', items })) },
    {
      weight: 3,
      arbitrary: fc
        .record({
          entries: fc.array(fc.tuple(keyArb, tie('value')), { maxLength: 4 }),
          circular: fc.boolean(),
          nullProto: fc.boolean(),
        })
        .map(({ entries, circular, nullProto }): Recipe => ({ t: 'obj', entries, circular, nullProto })),
    },
    { weight: 1, arbitrary: tie('value').map((v): Recipe => ({ t: 'json', v })) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          kind: errorKindArb,
          msg: stringArb,
          cause: fc.option(tie('value'), { nil: undefined }),
          extra: fc.array(fc.tuple(keyArb, tie('value')), { maxLength: 2 }),
        })
        .map((r): Recipe => ({ t: 'err', ...r })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ msg: stringArb, errors: fc.array(tie('value'), { maxLength: 2 }) })
        .map((r): Recipe => ({ t: 'agg', ...r })),
    },
  ),
}))

export const objectArb: fc.Arbitrary<Recipe> = fc
  .record({
    entries: fc.array(fc.tuple(keyArb, valueArb), { maxLength: 5 }),
    circular: fc.boolean(),
    nullProto: fc.boolean(),
  })
  .map(({ entries, circular, nullProto }): Recipe => ({
    t: 'obj',
    entries,
    circular: circular && entries.length > 2,
    nullProto,
  }))

/**
 * Bindings have an Object prototype: pino calls `bindings.hasOwnProperty`, so a null-prototype
 * bindings object is a TypeError from pino's child() (logx takes it); that crash is not compared.
 */
export const bindingsArb: fc.Arbitrary<Recipe> = objectArb.map((recipe) => ({ ...recipe, nullProto: false }) as Recipe)

export const errorArb: fc.Arbitrary<Recipe> = fc
  .record({
    kind: errorKindArb,
    msg: stringArb,
    cause: fc.option(valueArb, { nil: undefined }),
    extra: fc.array(fc.tuple(keyArb, valueArb), { maxLength: 2 }),
  })
  .map((r): Recipe => ({ t: 'err', ...r }))

function makeError(kind: ErrorKind, msg: string, cause: unknown, hasCause: boolean): Error {
  const options = hasCause ? { cause } : undefined
  const Ctor = kind === 'Custom' ? CustomError : globalThis[kind]
  // The stack is pinned below; capturing a real one first is most of a case's time.
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  const err = new Ctor(msg, options)
  Error.stackTraceLimit = limit
  // Pinned: a stack names the line that built it, which is the same for both libraries only by luck.
  err.stack = `${err.name}: ${msg}\n    at pinned (differential.js:1:1)`
  return err
}

function fakeRequest(url: string): object {
  return {
    method: 'GET',
    url,
    headers: { host: 'h', 'x-secret': 's' },
    socket: { remoteAddress: '10.0.0.1', remotePort: 5555 },
    id: 7,
  }
}

function fakeResponse(status: number): object {
  return { statusCode: status, headersSent: true, getHeaders: () => ({ 'content-type': 'text/plain' }), setHeader() {} }
}

/** Builds the value a recipe describes; every call builds new objects. */
export function materialize(recipe: Recipe): unknown {
  switch (recipe.t) {
    case 'str':
    case 'num':
    case 'bool':
      return recipe.v
    case 'big':
      return BigInt(recipe.v)
    case 'null':
      return null
    case 'undef':
      return undefined
    case 'sym':
      return recipe.v === '' ? Symbol() : Symbol(recipe.v)
    case 'fn':
      return recipe.v === ''
        ? (
            () => () =>
              1
          )()
        : function named(): number {
            return 1
          }
    case 'date':
      return new Date(recipe.v)
    case 'buf':
      return Buffer.from(recipe.v)
    case 'typed':
      return Uint8Array.from(recipe.v)
    case 'map':
      return new Map([['k', 1]])
    case 'arr':
      return recipe.items.map(materialize)
    case 'obj':
      return materializeObject(recipe)
    case 'json':
      return { toJSON: () => materialize(recipe.v) }
    case 'err':
      return materializeError(recipe)
    case 'agg': {
      const limit = Error.stackTraceLimit
      Error.stackTraceLimit = 0
      const err = new AggregateError(recipe.errors.map(materialize), recipe.msg)
      Error.stackTraceLimit = limit
      err.stack = `AggregateError: ${recipe.msg}\n    at pinned (differential.js:1:1)`
      return err
    }
    case 'req':
      return fakeRequest(recipe.url)
    case 'res':
      return fakeResponse(recipe.status)
  }
}

function materializeObject(recipe: Extract<Recipe, { t: 'obj' }>): Record<string, unknown> {
  const out: Record<string, unknown> = recipe.nullProto ? Object.create(null) : {}
  for (const [key, value] of recipe.entries) out[key] = materialize(value)
  if (recipe.circular) out.self = out
  return out
}

function materializeError(recipe: Extract<Recipe, { t: 'err' }>): Error {
  const err = makeError(recipe.kind, recipe.msg, recipe.cause && materialize(recipe.cause), recipe.cause !== undefined)
  for (const [key, value] of recipe.extra) {
    // Keys an Error owns (message, stack, name) stay as the constructor set them.
    if (key !== 'message' && key !== 'stack' && key !== 'name')
      (err as unknown as Record<string, unknown>)[key] = materialize(value)
  }
  return err
}
