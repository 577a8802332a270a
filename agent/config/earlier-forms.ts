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
import type { CheckContext } from './check-context'
import { checkAt } from './check-shape'
import { formatPath } from './config-path'
import { parseDuration } from './duration'
import { ConfigErrorCodes, ConfigWarningCodes } from './errors'
import { compileRegex, isRegexLiteral } from './regex-literal'
import type { KeyAlias, LegacyForm, Shape } from './shape'
import type { Segment } from './yaml-source'

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
    ctx.report(ConfigErrorCodes.REGEX, [...at, flags === undefined || compiled.message.includes('invalid regular') ? 'regex' : 'flags'], compiled.message)
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
 * Silences' `matchers` values in options: the object forms are rewritten, with a warning. A "/.../"
 * string is a regular expression, as in the YAML config, where targets compared it for equality:
 * the one meaning that changed. A pattern nearly always matches its own delimited text, so such a
 * silence mutes what it did and possibly more; a warning on every regex written the current way
 * would only teach people to ignore warnings.
 */
export const earlierMatcherValue: LegacyForm = (value, at, ctx) => {
  if (!isMapping(value)) return value
  const form = Object.hasOwn(value, 'regex') ? '{ regex, flags }' : Object.hasOwn(value, 'equals') ? '{ equals }' : undefined
  if (form === undefined) return value
  const instead = form === '{ equals }' ? 'the value itself' : 'a "/pattern/flags" string'
  ctx.deprecate({ code: ConfigWarningCodes.VALUE_FORM, path: at, message: `a ${form} matcher is deprecated: write ${instead}` })
  return earlierMatcher(value, at, ctx)
}

/** `group_by: "host"` as the one-item list it always meant. */
export const earlierGroupBy: LegacyForm = (value, at, ctx) => {
  if (typeof value !== 'string') return value
  ctx.deprecate({ code: ConfigWarningCodes.VALUE_FORM, path: at, message: 'a single group_by path is deprecated: write a list' })
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

function readFields(value: unknown, at: readonly Segment[], ctx: CheckContext, shapes: CurrentShapes): Record<string, unknown> | undefined {
  if (!isMapping(value)) {
    ctx.report(ConfigErrorCodes.TYPE, at, 'expected a mapping of dot path -> value')
    return undefined
  }
  const match: Record<string, unknown> = {}
  for (const [path, written] of Object.entries(value)) {
    const checked = checkAt(shapes.matchValue, earlierMatcher(written, [...at, path], ctx), [...at, path], ctx)
    if (checked !== undefined) Object.defineProperty(match, path, { value: checked, enumerable: true, writable: true, configurable: true })
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
  const after = step.after === undefined ? 0 : parseDuration(checkAt(shapes.duration, step.after, [...at, 'after'], ctx))
  if (step.channels === undefined) ctx.report(ConfigErrorCodes.MISSING_KEY, [...at, 'channels'], 'is required')
  const notify = step.channels === undefined ? undefined : checkAt(shapes.names, step.channels, [...at, 'channels'], ctx)
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
    ctx.deprecate({ code: ConfigWarningCodes.RULE_KEY, path, message: 'is ignored beside "escalation" (as it always was): its first step decides the first notice' })
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
    msg: { replacedBy: ['message'], hint: '"message" (a "/pattern/flags" string, or a bare pattern)', read: (v, at, ctx) => readMsg(v, at, ctx) },
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
