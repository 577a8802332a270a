// A number shape's check (a fraction allowed, `spike.factor: 1.5`), beside check-shape.ts which walks to
// it. Like an integer, a number may come from the environment as text (`${FACTOR}`).
import type { CheckContext } from '../load/check-context'
import type { Segment } from '../load/yaml-source'
import { ConfigErrorCodes } from '../errors'
import { typeName } from './config-path'
import { describeShape, type NumberShape } from './shape'

const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/

/**
 * The value as a number, or undefined (and the problem reported, at its path). `resolve` makes a
 * `${VAR}` reference text; a non-string answer means it could not (it reported why).
 */
export function checkNumber(
  shape: NumberShape,
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
  resolve: (text: string) => string | symbol,
): number | undefined {
  let number = value
  if (typeof value === 'string' && value.includes('${')) {
    const resolved = resolve(value)
    if (typeof resolved !== 'string') return undefined
    number = DECIMAL.test(resolved.trim()) ? Number(resolved) : resolved
  }
  if (typeof number !== 'number') {
    const got = typeof number === 'string' ? ctx.show(at, number) : typeName(number)
    ctx.report(ConfigErrorCodes.TYPE, at, `expected ${describeShape(shape)}, got ${got}`)
    return undefined
  }
  if (!Number.isFinite(number) || (shape.above !== undefined && number <= shape.above)) {
    ctx.report(ConfigErrorCodes.VALUE, at, `expected ${describeShape(shape)}, got ${ctx.show(at, number)}`)
    return undefined
  }
  return number
}
