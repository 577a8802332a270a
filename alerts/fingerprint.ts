// The incident key. With `group_by` it is the rule plus those fields' values. Without it, it is what
// stays the same when one failure repeats: the error type, the top stack frame, and the message
// with its variable parts (numbers, ids, hex, addresses) masked.
import { getPath } from './dot-path'
import type { AlertLine } from './line'
import type { Rule } from './rule'

const MASKS: readonly [RegExp, string][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<ip>'],
  [/\d+/g, '<n>'],
]

/** The message with variable parts replaced, so repeats of one failure compare equal. */
export function maskMessage(message: string): string {
  let out = message.length > 500 ? message.slice(0, 500) : message
  for (const [pattern, replacement] of MASKS) out = out.replace(pattern, replacement)
  return out
}

/** First `at ...` line of a stack, with line/column kept: the same throw site has the same frame. */
export function topFrame(stack: unknown): string {
  if (typeof stack !== 'string') return ''
  for (const raw of stack.split('\n', 20)) {
    const line = raw.trim()
    if (line.startsWith('at ')) return line
  }
  return ''
}

function errorOf(record: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const err = record.err ?? record.error
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>) : undefined
}

/** 53-bit string hash (cyrb53): short stable keys without node:crypto. */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0')
}

/** The parts the key is made of, readable (shown in incident notes). */
export function fingerprintParts(rule: Rule, line: AlertLine): string[] {
  if (rule.groupBy !== undefined) {
    return rule.groupBy.map((path) => `${path}=${JSON.stringify(getPath(line.record, path) ?? null)}`)
  }
  const err = errorOf(line.record)
  const type = err?.type ?? err?.name ?? ''
  return [String(type), topFrame(err?.stack), maskMessage(line.msg)]
}

export function fingerprint(rule: Rule, line: AlertLine): string {
  return `${rule.name}:${hash53(fingerprintParts(rule, line).join('\u0000'))}`
}
