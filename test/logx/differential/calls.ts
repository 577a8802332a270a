// Call sequences as printable recipes: log calls of every shape, children (with bindings and
// options, nested), setBindings, level changes, and the reads a user makes of a logger.
import fc from 'fast-check'
import { bindingsArb, errorArb, objectArb, stringArb, templateArb, valueArb, type Recipe } from './values'
import { redactArb, serializerSets, type RedactRecipe } from './options'

export interface ChildOptionsRecipe {
  level?: string
  serializers?: string[]
  redact?: RedactRecipe
  msgPrefix?: string
  formatters?: { bindings?: 'tagged'; level?: 'label'; log?: 'flagged' }
  customLevels?: Record<string, number>
}

export type Op =
  | { op: 'log'; on: number; level: string; args: Recipe[] }
  | { op: 'child'; on: number; bindings: Recipe; options?: ChildOptionsRecipe }
  | { op: 'setBindings'; on: number; bindings: Recipe }
  | { op: 'setLevel'; on: number; level: string | number }
  | { op: 'read'; on: number; what: 'bindings' | 'level' | 'levelVal' | 'isLevelEnabled'; level: string }

export const LEVEL_NAMES = [
  'trace',
  'debug',
  'info',
  'warn',
  'error',
  'fatal',
  'silent',
  'notice',
  'verbose',
  'critical',
  'audit',
  'low',
  'high',
  'child1',
] as const

const levelArb = fc.constantFrom(...LEVEL_NAMES)
const onArb = fc.nat(8)

const str = (v: string): Recipe => ({ t: 'str', v })

/** Every call shape pino documents, and the odd ones people write anyway. */
export const argsArb: fc.Arbitrary<Recipe[]> = fc.oneof(
  fc.constant<Recipe[]>([]),
  stringArb.map((s) => [str(s)]),
  fc.tuple(templateArb, fc.array(valueArb, { maxLength: 4 })).map(([t, rest]) => [str(t), ...rest]),
  objectArb.map((o) => [o]),
  fc.tuple(objectArb, stringArb).map(([o, s]) => [o, str(s)]),
  fc.tuple(objectArb, templateArb, fc.array(valueArb, { maxLength: 3 })).map(([o, t, rest]) => [o, str(t), ...rest]),
  errorArb.map((e) => [e]),
  fc.tuple(errorArb, stringArb).map(([e, s]) => [e, str(s)]),
  fc
    .tuple(errorArb, fc.constantFrom('err', 'error', 'e', 'msg'))
    .map(([e, k]) => [{ t: 'obj', entries: [[k, e]] } as Recipe]),
  fc.array(valueArb, { minLength: 1, maxLength: 4 }),
)

const childOptionsArb: fc.Arbitrary<ChildOptionsRecipe> = fc.record(
  {
    level: levelArb,
    serializers: fc.subarray(Object.keys(serializerSets), { minLength: 1, maxLength: 2 }),
    redact: redactArb,
    msgPrefix: fc.constantFrom('[child] ', ''),
    formatters: fc.record(
      {
        bindings: fc.constant('tagged' as const),
        level: fc.constant('label' as const),
        log: fc.constant('flagged' as const),
      },
      { requiredKeys: [] },
    ),
    customLevels: fc.constantFrom({ child1: 33 }, { child1: 65 }),
  },
  { requiredKeys: [] },
)

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant('log' as const), on: onArb, level: levelArb, args: argsArb }) },
  {
    weight: 3,
    arbitrary: fc.record(
      { op: fc.constant('child' as const), on: onArb, bindings: bindingsArb, options: childOptionsArb },
      { requiredKeys: ['op', 'on', 'bindings'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('setBindings' as const), on: onArb, bindings: bindingsArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('setLevel' as const),
      on: onArb,
      level: fc.oneof(levelArb, fc.constantFrom(10, 30, 35)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('read' as const),
      on: onArb,
      what: fc.constantFrom('bindings' as const, 'level' as const, 'levelVal' as const, 'isLevelEnabled' as const),
      level: levelArb,
    }),
  },
)

export const opsArb: fc.Arbitrary<Op[]> = fc.array(opArb, { minLength: 1, maxLength: 8 })
