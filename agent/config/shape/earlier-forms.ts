// What the transport targets' options said before the rule vocabulary was one (the YAML's), still
// read there, with its earlier meaning, and each use reported as deprecated. Never read from YAML.
//
//   msg: "pattern" | { regex, flags }       -> message: "/pattern/flags"
//   fields: { path: value | { regex, flags } | { equals } }  (a "/.../" value compared for equality)
//                                           -> match: { path: value | "/pattern/flags" }
//   channels: [names]                       -> notify: [names]
//   escalation: [{ after, channels }]       -> notify (the step at 0, or nobody) + escalate: [{ after, notify }]
//   group_by: "path"                        -> group_by: ["path"]
//   matchers values { regex, flags } | { equals: value }  -> "/pattern/flags" | value
//   silences' starts_at / ends_at: any date Date.parse reads, epoch ms with a fraction
//                                           -> epoch ms (whole)
//   keys never read in threshold, a silence, a voice receiver, a per-kind template -> still ignored
//   redact: "user name" (a key with blanks or quotes, split at dots)  -> '["user name"]'
import type { CheckContext } from '../load/check-context'
import { checkAt } from './check-shape'
import { formatPath } from './config-path'
import { parseDuration } from '../values/duration'
import { suggestion } from './did-you-mean'
import { ConfigErrorCodes, ConfigWarningCodes } from '../errors'
import { compileRegex, isRegexLiteral } from '../values/regex-literal'
import type { KeyAlias, LegacyForm, Shape } from './shape'
import { checkDate, redactPathOf } from '../values/value-checks'
import type { Segment } from '../load/yaml-source'

/** The shapes the earlier forms are checked with, once rewritten (agent-shape.ts owns them). */
export interface CurrentShapes {
  names: Shape
  duration: Shape
  matchValue: Shape
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const escapeRegex = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')

/** `{ regex, flags }` as a "/pattern/flags" literal; undefined (reported) when it does not compile. */
function regexLiteral(value: Record<string, unknown>, at: readonly Segment[], ctx: CheckContext): string | undefined {
  const { regex, flags } = value
  if (typeof regex !== 'string') {
    ctx.report(ConfigErrorCodes.REGEX, [...at, 'regex'], 'expected a regular expression string')
    return undefined
  }
  if (flags !== undefined && typeof flags !== 'string') {
    ctx.report(ConfigErrorCodes.REGEX, [...at, 'flags'], 'expected regex flags, such as "i"')
    return undefined
  }
  const compiled = compileRegex(regex, flags)
  if (!compiled.ok) {
    ctx.report(
      ConfigErrorCodes.REGEX,
      [...at, flags === undefined || compiled.message.includes('invalid regular') ? 'regex' : 'flags'],
      compiled.message,
    )
    return undefined
  }
  return `/${regex}/${flags ?? ''}`
}

// Matched nothing before (an object or list compared by identity with a parsed line): still nothing.
const NEVER = '/[]/'

/**
 * A value a target's matcher compared for equality, written so it still is: a string that reads
 * as "/.../" becomes an anchored, escaped pattern.
 */
function equality(value: unknown): unknown {
  if (typeof value === 'string') return isRegexLiteral(value) ? `/^${escapeRegex(value)}$/` : value
  if (typeof value === 'object' && value !== null) return NEVER
  return value
}

/** A value of `fields` (a value compared for equality, `{ regex, flags }` or `{ equals }`) in the current form. */
function earlierMatcher(value: unknown, at: readonly Segment[], ctx: CheckContext): unknown {
  if (!isMapping(value)) return equality(value)
  if (Object.hasOwn(value, 'regex')) return regexLiteral(value, at, ctx) ?? NEVER
  if (Object.hasOwn(value, 'equals')) return equality(value.equals)
  return value
}

/**
 * Silences' `matchers` values in options keep their earlier meaning, since the key names are the
 * same in both vocabularies and the two meanings cannot be told apart by how they are written: a
 * "/.../" string is compared for equality there (in the YAML it is a pattern), with a warning that
 * says so, and a pattern is written `{ regex, flags }`. `{ equals }` still reads as equality.
 */
export const earlierMatcherValue: LegacyForm = (value, at, ctx) => {
  if (typeof value === 'string' && isRegexLiteral(value)) {
    ctx.deprecate({
      code: ConfigWarningCodes.VALUE_FORM,
      path: at,
      message: `${JSON.stringify(value)} is compared for equality, as target options always did (the YAML reads "/.../" as a pattern); for a pattern here write { regex, flags }`,
    })
    return equality(value)
  }
  if (!isMapping(value)) return value
  return earlierMatcher(value, at, ctx)
}

/** `group_by: "host"` as the one-item list it always meant. */
export const earlierGroupBy: LegacyForm = (value, at, ctx) => {
  if (typeof value !== 'string') return value
  ctx.deprecate({
    code: ConfigWarningCodes.VALUE_FORM,
    path: at,
    message: 'a single group_by path is deprecated: write a list',
  })
  return [value]
}

function readMsg(value: unknown, at: readonly Segment[], ctx: CheckContext): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    // A string was always a bare pattern, slashes included.
    const compiled = compileRegex(value)
    if (compiled.ok) return { message: `/${value}/` }
    ctx.report(ConfigErrorCodes.REGEX, at, compiled.message)
    return undefined
  }
  if (isMapping(value)) {
    const literal = regexLiteral(value, at, ctx)
    return literal === undefined ? undefined : { message: literal }
  }
  ctx.report(ConfigErrorCodes.TYPE, at, 'expected a regular expression: a pattern, or { regex, flags }')
  return undefined
}

function readFields(
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
  shapes: CurrentShapes,
): Record<string, unknown> | undefined {
  if (!isMapping(value)) {
    ctx.report(ConfigErrorCodes.TYPE, at, 'expected a mapping of dot path -> value')
    return undefined
  }
  const match: Record<string, unknown> = {}
  for (const [path, written] of Object.entries(value)) {
    const checked = checkAt(shapes.matchValue, earlierMatcher(written, [...at, path], ctx), [...at, path], ctx)
    if (checked !== undefined)
      Object.defineProperty(match, path, { value: checked, enumerable: true, writable: true, configurable: true })
  }
  return { match }
}

interface Step {
  afterMs: number
  notify: unknown
}

function readStep(step: unknown, at: readonly Segment[], ctx: CheckContext, shapes: CurrentShapes): Step | undefined {
  if (!isMapping(step)) {
    ctx.report(ConfigErrorCodes.TYPE, at, 'expected { after, channels }')
    return undefined
  }
  // The first step could leave `after` out (0: the first notice); other keys were never read.
  const after =
    step.after === undefined ? 0 : parseDuration(checkAt(shapes.duration, step.after, [...at, 'after'], ctx))
  if (step.channels === undefined) ctx.report(ConfigErrorCodes.MISSING_KEY, [...at, 'channels'], 'is required')
  const notify =
    step.channels === undefined ? undefined : checkAt(shapes.names, step.channels, [...at, 'channels'], ctx)
  return after !== undefined && notify !== undefined ? { afterMs: after, notify } : undefined
}

function readEscalation(
  value: unknown,
  at: readonly Segment[],
  ctx: CheckContext,
  shapes: CurrentShapes,
  siblings: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    ctx.report(ConfigErrorCodes.TYPE, at, 'expected a non-empty list of { after, channels }')
    return undefined
  }
  const steps: Step[] = []
  let ordered = true
  let previous: { afterMs: number; path: readonly Segment[] } | undefined
  value.forEach((written: unknown, i) => {
    const step = readStep(written, [...at, i], ctx, shapes)
    if (step === undefined) return
    if (previous !== undefined && step.afterMs <= previous.afterMs) {
      ctx.report(ConfigErrorCodes.VALUE, [...at, i, 'after'], `must be later than ${formatPath(previous.path)}.after`)
      ordered = false
    }
    previous = { afterMs: step.afterMs, path: [...at, i] }
    steps.push(step)
  })
  // Problems are reported here, at the paths as written; the rule's own checks see valid steps only.
  if (!ordered || steps.length !== value.length) return undefined
  if (Object.hasOwn(siblings, 'channels')) {
    const path = [...at.slice(0, -1), 'channels']
    ctx.deprecate({
      code: ConfigWarningCodes.RULE_KEY,
      path,
      message: 'is ignored beside "escalation" (as it always was): its first step decides the first notice',
    })
  }
  // Step 0 was the first notice; starting later meant no first notice at all.
  const first = steps[0] as Step
  const later = first.afterMs === 0 ? steps.slice(1) : steps
  return {
    notify: first.afterMs === 0 ? first.notify : [],
    escalate: later.map((step) => ({ after: step.afterMs, notify: step.notify })),
  }
}

/** The rule keys' earlier names, in the order they are applied. */
export function ruleAliases(shapes: CurrentShapes): Record<string, KeyAlias> {
  return {
    msg: {
      replacedBy: ['message'],
      hint: '"message" (a "/pattern/flags" string, or a bare pattern)',
      read: (v, at, ctx) => readMsg(v, at, ctx),
    },
    fields: {
      replacedBy: ['match'],
      hint: '"match" (where a "/pattern/flags" value is a regular expression)',
      read: (v, at, ctx) => readFields(v, at, ctx, shapes),
    },
    channels: {
      replacedBy: ['notify'],
      hint: '"notify"',
      read: (v, at, ctx) => {
        const notify = checkAt(shapes.names, v, at, ctx)
        return notify === undefined ? undefined : { notify }
      },
    },
    escalation: {
      replacedBy: ['escalate', 'notify'],
      hint: '"notify" for the first notice and "escalate: [{ after, notify }]" for later steps',
      read: (v, at, ctx, siblings) => readEscalation(v, at, ctx, shapes, siblings),
    },
  }
}

/**
 * Keys the targets never read inside `threshold`, a silence, a voice receiver or a per-kind template
 * were ignored there, not refused: they still are, a warning each, instead of failing the start.
 */
export function earlierIgnoredKeys(known: readonly string[]): LegacyForm {
  return (value, at, ctx) => {
    if (!isMapping(value) || Object.keys(value).every((key) => known.includes(key))) return value
    const kept: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      if (known.includes(key))
        Object.defineProperty(kept, key, { value: item, enumerable: true, writable: true, configurable: true })
      else
        ctx.deprecate({
          code: ConfigWarningCodes.IGNORED_KEY,
          path: [...at, key],
          message: `is ignored, as it always was here: remove it${suggestion(key, known)}`,
        })
    }
    return kept
  }
}

/**
 * A silence's `starts_at` / `ends_at`: the targets took any string Date.parse reads
 * (`toUTCString()`, `2099/01/01`), read the same way with a warning, and epoch milliseconds with a
 * fraction, rounded up: against a clock of whole milliseconds that starts and ends the silence at
 * the same moments.
 */
export const earlierTime: LegacyForm = (value, at, ctx) => {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.ceil(value) : value
  if (typeof value !== 'string' || checkDate(value) === undefined) return value
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) return value
  ctx.deprecate({
    code: ConfigWarningCodes.VALUE_FORM,
    path: at,
    message: `a date that is not ISO is deprecated: write "${new Date(ms).toISOString()}"`,
  })
  return ms
}

const QUOTES = ['"', "'", '`']
const PLAIN_SEGMENT = /^[^\s'"`]+$/

/**
 * A redact path the logger's grammar refuses but the targets read by splitting it at dots: a key
 * with blanks or quotes (`user name`). Its segments as before, and the path in the logger's
 * grammar; undefined for anything else (brackets, empty segments), which stays refused.
 */
export function earlierRedactPath(path: string): { segments: string[]; instead: string } | undefined {
  if (/[[\]]/.test(path)) return undefined
  const segments = path.split('.')
  if (segments.includes('')) return undefined
  let instead = ''
  for (const segment of segments) {
    if (PLAIN_SEGMENT.test(segment)) instead += instead === '' ? segment : `.${segment}`
    else {
      const quote = QUOTES.find((q) => !segment.includes(q))
      if (quote === undefined) return undefined
      instead += `[${quote}${segment}${quote}]`
    }
  }
  try {
    return redactPathOf(instead).join('\0') === segments.join('\0') ? { segments, instead } : undefined
  } catch {
    return undefined
  }
}
