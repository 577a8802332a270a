// The incident key. With `group_by` it is the rule plus those fields' values. Without it, it is what
// stays the same when one failure repeats: the error type, the top stack frame, and the message
// with its variable parts (numbers, ids, hex, addresses) masked.
import type { PathGetter } from './dot-path'
import { hash53 } from './hash53'
import type { AlertLine } from './line'
import type { Rule } from './rule'
import { goTopFrame, pythonTopFrame, traceKind } from './trace'

// Applied in order. Each comes with a test that a text must pass for the pattern to match at all
// (every mask is `<`, letters and `>`, so a test that fails on the message fails after any earlier
// mask too): a pass that cannot match is skipped, and most messages skip most passes. The tests are
// cheaper than the patterns, which look for word boundaries at every position.
const MASKS: readonly [RegExp, string, (text: string, digits: boolean) => boolean][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>', (text) => hasUuidDashes(text)],
  [/\b0x[0-9a-f]+\b/gi, '<hex>', (text) => text.includes('0x') || text.includes('0X')],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>', (text, digits) => digits && hasHexRun(text, 8)],
  [/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<ip>', (text, digits) => digits && text.includes('.')],
  [/\d+/g, '<n>', (text, digits) => digits],
]
const HAS_DIGIT = /\d/

/** A dash followed by dashes 5, 10 and 15 characters on, as the dashes of a UUID are. */
function hasUuidDashes(text: string): boolean {
  for (let at = text.indexOf('-'); at !== -1; at = text.indexOf('-', at + 1)) {
    if (text.charCodeAt(at + 5) === 45 && text.charCodeAt(at + 10) === 45 && text.charCodeAt(at + 15) === 45)
      return true
  }
  return false
}

/** `min` hex digits in a row (either case); may say yes for a few control characters too. */
function hasHexRun(text: string, min: number): boolean {
  let run = 0
  for (let i = 0; i < text.length; i++) {
    // Setting bit 0x20 folds A-F onto a-f and leaves 0-9 as they are.
    const c = text.charCodeAt(i) | 0x20
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102)) {
      if (++run >= min) return true
    } else {
      run = 0
    }
  }
  return false
}

/** The message with variable parts replaced, so repeats of one failure compare equal. */
export function maskMessage(message: string): string {
  let out = message.length > 500 ? message.slice(0, 500) : message
  const digits = HAS_DIGIT.test(out)
  // No digit and no dash: no pattern can match.
  if (!digits && !out.includes('-')) return out
  for (const [pattern, replacement, canMatch] of MASKS)
    if (canMatch(out, digits)) out = out.replace(pattern, replacement)
  return out
}

/**
 * Where it was thrown, with line numbers kept: the same throw site has the same frame. The first
 * `at ...` line of a JavaScript or Java stack; the innermost `File ...` line of a Python traceback;
 * the panicking function and its file line of a Go goroutine dump (see trace.ts).
 */
export function topFrame(stack: unknown): string {
  if (typeof stack !== 'string') return ''
  const kind = traceKind(stack)
  if (kind === 'python') return pythonTopFrame(stack.split('\n'))
  if (kind === 'go') return goTopFrame(stack.split('\n'))
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

/**
 * The record field a sender's own name for an alert goes in (agent/intake: Alertmanager's
 * `fingerprint`): without `group_by` it is the key, in place of the error's shape. It is in the
 * record, so a line kept in the incident state and replayed after a restart keys alike.
 */
export const INCIDENT_KEY_FIELD = 'logx_key'

/** The parts the key is made of, readable (shown in incident notes). */
export function fingerprintParts(rule: Rule, line: AlertLine): string[] {
  if (rule.groupBy !== undefined) {
    const getters = rule.groupByGetters as readonly PathGetter[]
    return rule.groupBy.map((path, i) => `${path}=${JSON.stringify((getters[i] as PathGetter)(line.record) ?? null)}`)
  }
  const sent = line.record[INCIDENT_KEY_FIELD]
  if (typeof sent === 'string') return [`${INCIDENT_KEY_FIELD}=${sent}`]
  const err = errorOf(line.record)
  const type = err?.type ?? err?.name ?? ''
  return [String(type), topFrame(err?.stack), maskMessage(line.msg)]
}

export function fingerprint(rule: Rule, line: AlertLine): string {
  return `${rule.name}:${hash53(fingerprintParts(rule, line).join('\u0000'))}`
}
