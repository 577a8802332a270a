// A small declarative description of the config's structure. It is the single source of the set of
// keys: the strict checker walks it, and the JSON Schema for editors is generated from it, so the
// two cannot drift apart. The YAML config and the transport targets' options (their `rules`,
// `silences` and channel keys) are checked against the same shapes.
import type { ConfigSource } from '../load/check-context'
import type { ConfigErrorCode } from '../errors'

/**
 * A check on a string value; returns what is wrong, or undefined when it is fine. `source` is where
 * the value was written, for the few grammars the targets' options always took wider (dot paths).
 */
export type TextCheck = (value: string, source: ConfigSource) => string | undefined

interface Described {
  description?: string
}

export interface StringShape extends Described {
  kind: 'string'
  check?: TextCheck
  /** Code of the problems `check` reports; default VALUE. */
  code?: ConfigErrorCode
  /** A secret: never echoed, and `<key>_file` may give it instead. */
  secret?: boolean
  /** Hints for the JSON Schema only (`format`, `pattern`, `examples`). */
  json?: Record<string, unknown>
}

export interface IntegerShape extends Described {
  kind: 'integer'
  min?: number
  max?: number
}

/** A number, fractions allowed (`spike.factor: 1.5`); `above` is exclusive: the value must be greater. */
export interface NumberShape extends Described {
  kind: 'number'
  above?: number
}

export interface BooleanShape extends Described {
  kind: 'boolean'
}

export interface EnumShape extends Described {
  kind: 'enum'
  values: readonly string[]
}

export interface DurationShape extends Described {
  kind: 'duration'
}

/** A string, number, boolean or null: the value side of a field matcher. */
export interface ScalarShape extends Described {
  kind: 'scalar'
  check?: TextCheck
  code?: ConfigErrorCode
}

export interface ListShape extends Described {
  kind: 'list'
  items: Shape
  minItems?: number
  /** A single item may be written without the brackets (`source: api`). */
  single?: boolean
}

export interface Field {
  shape: Shape
  required?: boolean
  description: string
  /** Shown in the JSON Schema and the README; the normalizer applies it. */
  default?: unknown
}

export interface ObjectShape extends Described {
  kind: 'object'
  fields: Readonly<Record<string, Field>>
  /**
   * At least one of these (optional) keys must be given: a channel's `numbers` or `people`, a
   * person's `phone`, `email` or `chat`.
   */
  needsOneOf?: readonly string[]
}

/** Free keys (channel names, dot paths) to values of one shape. */
export interface MapShape extends Described {
  kind: 'map'
  values: Shape
  keyCheck?: TextCheck
  minEntries?: number
}

/** Objects told apart by one key (`type: sms | chat | ...`); the variants list their other keys. */
export interface TaggedShape extends Described {
  kind: 'tagged'
  tag: string
  variants: Readonly<Record<string, ObjectShape>>
}

/** Alternatives told apart by the value's type (string or number, template or per-kind object). */
export interface EitherShape extends Described {
  kind: 'either'
  options: readonly Shape[]
  /** How "expected ..." names it, when listing the options would not help (`a level name or number`). */
  label?: string
}

export type Shape =
  | StringShape
  | IntegerShape
  | NumberShape
  | BooleanShape
  | EnumShape
  | DurationShape
  | ScalarShape
  | ListShape
  | ObjectShape
  | MapShape
  | TaggedShape
  | EitherShape

/** The key a secret may be read from instead: `api_key` -> `api_key_file`. */
export const fileKey = (key: string): string => `${key}_file`

/** Every key an object accepts, `*_file` companions of secrets included. */
export function objectKeys(shape: ObjectShape): string[] {
  const keys: string[] = []
  for (const [key, field] of Object.entries(shape.fields)) {
    keys.push(key)
    if (field.shape.kind === 'string' && field.shape.secret === true) keys.push(fileKey(key))
  }
  return keys
}

/** `a or b`, `a, b or c`: keys as a message lists them. */
export function orList(keys: readonly string[]): string {
  return keys.length <= 1 ? keys.join('') : `${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1] as string}`
}

/** How a shape is named in "expected ..." messages. */
export function describeShape(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'a string'
    case 'integer':
      return 'an integer'
    case 'number':
      return shape.above === undefined ? 'a number' : `a number above ${shape.above}`
    case 'boolean':
      return 'true or false'
    case 'enum':
      return `one of ${shape.values.join(', ')}`
    case 'duration':
      return 'a duration'
    case 'scalar':
      return 'a string, number or boolean'
    case 'list':
      return shape.single === true ? `${describeShape(shape.items)} or a list of them` : 'a list'
    case 'object':
    case 'map':
    case 'tagged':
      return 'a mapping'
    case 'either':
      return shape.label ?? shape.options.map(describeShape).join(' or ')
  }
}
