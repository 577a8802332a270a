// Paths as problems print them: `rules[0].notify[1]`, `channels.oncall-sms.type`,
// `rules[0].match["err.type"]` (a key that is not a plain name is quoted so dots stay unambiguous).
import type { Segment } from '../load/yaml-source'

const PLAIN = /^[A-Za-z_][\w-]*$/

export function formatPath(path: readonly Segment[]): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (PLAIN.test(segment)) out += out === '' ? segment : `.${segment}`
    else out += `[${JSON.stringify(segment)}]`
  }
  return out
}

/** A value as a message may echo it: short, and JSON so its type shows. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** A value's type as "expected X, got Y" says it. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'string') return 'a string'
  if (typeof value === 'number') return 'a number'
  if (typeof value === 'boolean') return 'a boolean'
  return typeof value
}
