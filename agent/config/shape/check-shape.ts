// Stage 2 of loading: the written document against the shape. Strict (unknown keys are problems,
// with a did-you-mean), resolves `${VAR}` references and `*_file` secrets on the way, and keeps
// going after a problem so one run reports all of them. What comes out is the written config with
// references resolved; values that failed are left out (undefined), list indexes are kept.
// Transport targets' options go through the same walk (`ctx.source` 'options'): no references.
import { resolve as resolvePath } from 'node:path'
import type { CheckContext } from '../load/check-context'
import { typeName } from './config-path'
import { suggestion } from './did-you-mean'
import { DURATION_HINT, parseDuration } from '../values/duration'
import { interpolateEnv } from '../load/env-reference'
import { ConfigErrorCodes } from '../errors'
import { checkNumber } from './check-number'
import { describeShape, fileKey, objectKeys, orList, type Field, type ObjectShape, type Shape } from './shape'
import type { DurationShape, EitherShape, EnumShape, IntegerShape, ListShape } from './shape'
import type { MapShape, ScalarShape, StringShape, TaggedShape } from './shape'
import type { Segment } from '../load/yaml-source'

/** A value that failed its check; never escapes this module (it becomes undefined). */
const INVALID = Symbol('invalid')
type Checked = unknown

type Family = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object'

function familyOf(value: unknown): Family {
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object') return 'object'
  return typeof value as 'string' | 'number' | 'boolean'
}

function families(shape: Shape): Set<Family> {
  switch (shape.kind) {
    case 'string':
    case 'enum':
      return new Set(['string', 'number'])
    case 'integer':
    case 'number':
      return new Set(['number'])
    case 'duration':
      return new Set(['string', 'number'])
    case 'boolean':
      return new Set(['boolean'])
    case 'scalar':
      return new Set(['string', 'number', 'boolean', 'null'])
    case 'list':
      return shape.single === true ? new Set<Family>(['array', ...families(shape.items)]) : new Set(['array'])
    case 'object':
    case 'map':
    case 'tagged':
      return new Set(['object'])
    case 'either':
      return new Set(shape.options.flatMap((option) => [...families(option)]))
  }
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// Keys come from the file; defineProperty keeps a key named `__proto__` an ordinary key.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Resolves `${VAR}` references of a string value; INVALID (and a problem) when one cannot be. */
function text(value: string, at: readonly Segment[], ctx: CheckContext): string | typeof INVALID {
  // Options are code: a `${` in them is text, as it always was.
  if (ctx.source === 'options') return value
  const result = interpolateEnv(value, ctx.env)
  if (!result.ok) {
    ctx.report(ConfigErrorCodes.ENV, at, result.message)
    return INVALID
  }
  if (result.referenced) ctx.hide(at, value)
  return result.value
}

function expected(shape: Shape, value: unknown, at: readonly Segment[], ctx: CheckContext): typeof INVALID {
  ctx.report(ConfigErrorCodes.TYPE, at, `expected ${describeShape(shape)}, got ${typeName(value)}`)
  return INVALID
}

/** One value against its shape: the checked value, or INVALID (and its problems reported). */
function checkValue(shape: Shape, value: unknown, at: readonly Segment[], ctx: CheckContext): Checked | typeof INVALID {
  switch (shape.kind) {
    case 'string':
      return checkString(shape, value, at, ctx)
    case 'integer':
      return checkInteger(shape, value, at, ctx)
    case 'number':
      return checkNumber(shape, value, at, ctx, (written) => text(written, at, ctx)) ?? INVALID
    case 'boolean':
      return typeof value === 'boolean' ? value : expected(shape, value, at, ctx)
    case 'enum':
      return checkEnum(shape, value, at, ctx)
    case 'duration':
      return checkDuration(shape, value, at, ctx)
    case 'scalar':
      return checkScalar(shape, value, at, ctx)
    case 'list':
      return checkList(shape, value, at, ctx)
    case 'object':
      return checkObject(shape, value, at, ctx, undefined)
    case 'map':
      return checkMap(shape, value, at, ctx)
    case 'tagged':
      return checkTagged(shape, value, at, ctx)
    case 'either':
      return checkEither(shape, value, at, ctx)
  }
}

function checkString(
  shape: StringShape,
  written: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  let value = written
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value)
  if (typeof value !== 'string') return expected(shape, value, at, ctx)
  if (shape.secret === true) ctx.hide(at)
  const resolved = text(value, at, ctx)
  if (resolved === INVALID) return INVALID
  if (resolved.trim() === '') {
    ctx.report(ConfigErrorCodes.VALUE, at, 'must not be empty')
    return INVALID
  }
  const problem = shape.check?.(resolved, ctx.source)
  if (problem !== undefined) {
    // Template and regex problems quote the text themselves; plain value problems do not.
    const got = shape.code === undefined ? `, got ${ctx.show(at, resolved)}` : ''
    ctx.report(shape.code ?? ConfigErrorCodes.VALUE, at, `${problem}${got}`)
    return INVALID
  }
  return resolved
}

function checkInteger(
  shape: IntegerShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  let number = value
  // Numbers can only come from the environment as text: `${PORT}` is accepted where 4010 is.
  if (typeof value === 'string' && value.includes('${')) {
    const resolved = text(value, at, ctx)
    if (resolved === INVALID) return INVALID
    if (!/^-?\d+$/.test(resolved.trim())) {
      ctx.report(ConfigErrorCodes.VALUE, at, `expected an integer, got ${ctx.show(at, resolved)}`)
      return INVALID
    }
    number = Number(resolved)
  }
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    if (typeof number === 'number') {
      ctx.report(ConfigErrorCodes.VALUE, at, `expected an integer, got ${ctx.show(at, number)}`)
      return INVALID
    }
    return expected(shape, number, at, ctx)
  }
  if ((shape.min !== undefined && number < shape.min) || (shape.max !== undefined && number > shape.max)) {
    const range = shape.max === undefined ? `>= ${shape.min}` : `between ${shape.min ?? 0} and ${shape.max}`
    ctx.report(ConfigErrorCodes.VALUE, at, `expected an integer ${range}, got ${ctx.show(at, number)}`)
    return INVALID
  }
  return number
}

function checkEnum(
  shape: EnumShape,
  written: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  let value = written
  if (typeof value === 'number') value = String(value)
  if (typeof value !== 'string') return expected(shape, value, at, ctx)
  const resolved = text(value, at, ctx)
  if (resolved === INVALID) return INVALID
  if (!shape.values.includes(resolved)) {
    // A hidden value (from the environment, a file, a secret key) gets no did-you-mean: it would echo it.
    const hint = ctx.isHidden(at) ? '' : suggestion(resolved, shape.values)
    ctx.report(
      ConfigErrorCodes.VALUE,
      at,
      `expected one of ${shape.values.join(', ')}, got ${ctx.show(at, resolved)}${hint}`,
    )
    return INVALID
  }
  return resolved
}

function checkDuration(
  shape: DurationShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  let written = value
  if (typeof value === 'string') {
    const resolved = text(value, at, ctx)
    if (resolved === INVALID) return INVALID
    written = resolved
  }
  if (typeof written !== 'string' && typeof written !== 'number') return expected(shape, written, at, ctx)
  if (parseDuration(written) === undefined) {
    ctx.report(ConfigErrorCodes.DURATION, at, `expected ${DURATION_HINT}, got ${ctx.show(at, written)}`)
    return INVALID
  }
  return written
}

function checkScalar(
  shape: ScalarShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  if (value === undefined || (typeof value === 'object' && value !== null)) return expected(shape, value, at, ctx)
  if (typeof value !== 'string') return value
  const resolved = text(value, at, ctx)
  if (resolved === INVALID) return INVALID
  const problem = shape.check?.(resolved, ctx.source)
  if (problem !== undefined) {
    ctx.report(shape.code ?? ConfigErrorCodes.VALUE, at, problem)
    return INVALID
  }
  return resolved
}

function checkList(
  shape: ListShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  if (!Array.isArray(value)) {
    if (shape.single === true && families(shape.items).has(familyOf(value))) {
      // Kept unwrapped: the normalizer then knows to name `source`, not `source[0]`, in problems.
      return checkValue(shape.items, value, at, ctx)
    }
    return expected(shape, value, at, ctx)
  }
  if (shape.minItems !== undefined && value.length < shape.minItems) {
    ctx.report(
      ConfigErrorCodes.VALUE,
      at,
      shape.minItems === 1 ? 'must not be empty' : `expected at least ${shape.minItems} items`,
    )
    return INVALID
  }
  return value.map((item: unknown, i) => {
    const checked = checkValue(shape.items, item, [...at, i], ctx)
    return checked === INVALID ? undefined : checked
  })
}

function checkMap(
  shape: MapShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  if (!isMapping(value)) return expected(shape, value, at, ctx)
  const entries = Object.entries(value)
  if (shape.minEntries !== undefined && entries.length < shape.minEntries) {
    ctx.report(ConfigErrorCodes.VALUE, at, 'must not be empty')
    return INVALID
  }
  const out: Record<string, unknown> = {}
  for (const [key, item] of entries) {
    const problem = shape.keyCheck?.(key, ctx.source)
    if (problem !== undefined) {
      ctx.report(ConfigErrorCodes.VALUE, [...at, key], problem, 'key')
      continue
    }
    const checked = checkValue(shape.values, item, [...at, key], ctx)
    if (checked !== INVALID) setOwn(out, key, checked)
  }
  return out
}

function checkTagged(
  shape: TaggedShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  if (!isMapping(value)) return expected(shape, value, at, ctx)
  const names = Object.keys(shape.variants)
  const tag = value[shape.tag]
  if (tag === undefined) {
    ctx.report(ConfigErrorCodes.MISSING_KEY, [...at, shape.tag], `is required (one of ${names.join(', ')})`)
    return INVALID
  }
  const variant = typeof tag === 'string' && Object.hasOwn(shape.variants, tag) ? shape.variants[tag] : undefined
  if (variant === undefined || typeof tag !== 'string') {
    const shown = typeof tag === 'string' ? `"${tag}"${suggestion(tag, names)}` : typeName(tag)
    ctx.report(ConfigErrorCodes.VALUE, [...at, shape.tag], `expected one of ${names.join(', ')}, got ${shown}`)
    return INVALID
  }
  return checkObject(variant, value, at, ctx, { key: shape.tag, value: tag })
}

function checkEither(
  shape: EitherShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
): Checked | typeof INVALID {
  const family = familyOf(value)
  const option = shape.options.find((o) => families(o).has(family))
  return option === undefined ? expected(shape, value, at, ctx) : checkValue(option, value, at, ctx)
}

function readSecret(key: string, value: unknown, at: readonly Segment[], ctx: CheckContext): string | typeof INVALID {
  if (typeof value !== 'string') {
    ctx.report(ConfigErrorCodes.TYPE, at, `expected a file path, got ${typeName(value)}`)
    return INVALID
  }
  const path = text(value, at, ctx)
  if (path === INVALID) return INVALID
  let content: string
  try {
    content = ctx.readSecretFile(resolvePath(ctx.cwd, path))
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message
    ctx.report(ConfigErrorCodes.SECRET_FILE, at, `cannot read ${key} from ${JSON.stringify(path)} (${reason})`)
    return INVALID
  }
  // Secret files usually end with a newline that is not part of the secret.
  const secret = content.replace(/[\r\n]+$/, '')
  if (secret === '') {
    ctx.report(ConfigErrorCodes.SECRET_FILE, at, `${JSON.stringify(path)} is empty`)
    return INVALID
  }
  return secret
}

function checkObject(
  shape: ObjectShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
  tag: { key: string; value: string } | undefined,
): Checked | typeof INVALID {
  if (!isMapping(value)) return expected(shape, value, at, ctx)
  const out: Record<string, unknown> = {}
  if (tag !== undefined) out[tag.key] = tag.value
  const known = objectKeys(shape)
  const candidates = tag === undefined ? known : [tag.key, ...known]
  const given = new Set<string>()
  for (const [key, item] of Object.entries(value)) {
    if (tag !== undefined && key === tag.key) continue
    const field: Field | undefined = Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined
    if (field !== undefined) {
      given.add(key)
      const checked = checkValue(field.shape, item, [...at, key], ctx)
      if (checked !== INVALID) setOwn(out, key, checked)
      continue
    }
    const base = key.endsWith('_file') ? key.slice(0, -'_file'.length) : undefined
    const secretField = base === undefined || !Object.hasOwn(shape.fields, base) ? undefined : shape.fields[base]
    if (base !== undefined && secretField?.shape.kind === 'string' && secretField.shape.secret === true) {
      given.add(base)
      if (Object.hasOwn(value, base)) {
        ctx.report(ConfigErrorCodes.CONFLICT, [...at, key], `give ${base} or ${fileKey(base)}, not both`, 'key')
        continue
      }
      ctx.hide([...at, base])
      const secret = readSecret(base, item, [...at, key], ctx)
      if (secret !== INVALID) setOwn(out, base, secret)
      continue
    }
    const kind = tag === undefined ? '' : ` for ${tag.key} ${tag.value}`
    const hint = suggestion(key, candidates)
    ctx.report(ConfigErrorCodes.UNKNOWN_KEY, [...at, key], `unknown key "${key}"${kind}${hint}`, 'key')
  }
  for (const [key, field] of Object.entries(shape.fields)) {
    if (field.required === true && !given.has(key))
      ctx.report(ConfigErrorCodes.MISSING_KEY, [...at, key], 'is required')
  }
  // A key given with a bad value counts as given: its own problem says what is wrong.
  const oneOf = shape.needsOneOf
  if (oneOf !== undefined && !oneOf.some((key) => given.has(key)))
    ctx.report(ConfigErrorCodes.MISSING_KEY, at, `needs ${orList(oneOf)}`)
  return out
}

/** The written config with references resolved; problems go to the context. */
export function checkShape(shape: Shape, value: unknown, ctx: CheckContext): unknown {
  const checked = checkValue(shape, value, [], ctx)
  return checked === INVALID ? undefined : checked
}
