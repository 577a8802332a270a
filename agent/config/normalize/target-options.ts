// The transport targets' options, read by the same shapes and normalizers as the YAML config: a
// target's `rules` and `silences` are the YAML's `rules` and `silences`, key for key, and its own
// channel keys are the YAML channel's keys spelt the way every target option is (camelCase:
// `senderId` for `sender_id`). Strings are taken as they are (no `${VAR}`).
import { channelShape } from '../shape/channel-shape'
import { alertOptionsShape } from '../shape/rule-shape'
import { createCheckContext, type CheckContext } from '../load/check-context'
import { checkShape } from '../shape/check-shape'
import { formatPath } from '../shape/config-path'
import { ConfigErrorCodes, type ConfigErrorCode } from '../errors'
import { normalizeChannel } from './channels'
import { normalizeRules } from './rules'
import { normalizeSilences } from './silences'
import type { Field, ObjectShape } from '../shape/shape'
import type { ChannelConfig, ChannelType, RuleConfig, SilenceConfig } from '../types'
import type { ChannelInput, RuleInput, SilenceInput } from '../shape/written-types'

/** One problem, its path as the option is written: `rules[0].match.user`, `numbers[1]`. */
export interface OptionProblem {
  code: ConfigErrorCode
  path: string
  message: string
}

export type OptionsRead<T> = { ok: true; value: T } | { ok: false; problems: OptionProblem[] }

function optionsContext(): CheckContext {
  return createCheckContext({
    source: 'options',
    env: {},
    cwd: process.cwd(),
    readSecretFile: () => {
      throw new Error('options have no secret files')
    },
  })
}

function outcome<T>(ctx: CheckContext, value: T): OptionsRead<T> {
  if (ctx.problems.length === 0) return { ok: true, value }
  return {
    ok: false,
    problems: ctx.problems.map((p) => ({ code: p.code, path: formatPath(p.path), message: p.message })),
  }
}

/** The options present, without the ones set to undefined (as if left out). */
function present(written: Readonly<Record<string, unknown>>, keys: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (Object.hasOwn(written, key) && written[key] !== undefined) out[key] = written[key]
  return out
}

/**
 * A target's `rules` and `silences`. A rule without `notify` notifies `channels` (the target's
 * own); names in `notify` and `source` are not checked (they may belong to other targets).
 */
export function readAlertOptions(
  written: Readonly<Record<string, unknown>>,
  channels: readonly string[],
): OptionsRead<{ rules: RuleConfig[]; silences: SilenceConfig[] }> {
  const ctx = optionsContext()
  // The targets always refused an empty list: it would silently mean "no alert" (omit `rules` for
  // the default rule, error and fatal lines).
  if (Array.isArray(written.rules) && written.rules.length === 0) {
    ctx.report(
      ConfigErrorCodes.VALUE,
      ['rules'],
      'must not be empty (omit rules for the default: error and fatal lines)',
    )
  }
  const checked = (checkShape(alertOptionsShape, present(written, ['rules', 'silences']), ctx) ?? {}) as {
    rules?: RuleInput[]
    silences?: SilenceInput[]
  }
  const rules = normalizeRules(
    checked.rules,
    { sources: undefined, channels, checkChannels: false, people: undefined, schedules: undefined },
    ctx,
  )
  const silences = normalizeSilences(checked.silences, ctx)
  return outcome(ctx, { rules, silences })
}

const camelCase = (key: string): string => key.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase())

/**
 * Keys of a YAML channel a target does not take: its common `maxPerHour`, and `people`, `oncall`
 * and `active_hours` (a target has no people or schedules, and sends whenever it is called).
 */
const NOT_OPTIONS = new Set(['max_per_hour', 'people', 'oncall', 'active_hours'])

/**
 * The YAML channel of a type, keyed by option names. Without `people`, the recipients a YAML
 * channel may leave to its people (`numbers`, `to`, `receivers`) are required.
 */
function channelOptionsShape(type: ChannelType): { shape: ObjectShape; yamlKey: ReadonlyMap<string, string> } {
  const variant = channelShape.variants[type] as ObjectShape
  const oneOf = (variant.needsOneOf ?? []).filter((key) => !NOT_OPTIONS.has(key))
  const fields: Record<string, Field> = {}
  const yamlKey = new Map<string, string>()
  for (const [key, field] of Object.entries(variant.fields)) {
    if (NOT_OPTIONS.has(key)) continue
    fields[camelCase(key)] = oneOf.length === 1 && oneOf[0] === key ? { ...field, required: true } : field
    yamlKey.set(camelCase(key), key)
  }
  const shape: ObjectShape = { kind: 'object', fields }
  return { shape: oneOf.length > 1 ? { ...shape, needsOneOf: oneOf.map(camelCase) } : shape, yamlKey }
}

/** The option names of a channel target's own keys (`numbers`, `senderId`, ...). */
export function channelOptionKeys(type: ChannelType): string[] {
  return [...channelOptionsShape(type).yamlKey.keys()]
}

/** A channel target's own options as the channel named after its type (`sms`). */
export function readChannelOptions(
  type: ChannelType,
  written: Readonly<Record<string, unknown>>,
  maxPerHour: number | undefined,
): OptionsRead<ChannelConfig> {
  const ctx = optionsContext()
  const { shape, yamlKey } = channelOptionsShape(type)
  const checked = (checkShape(shape, present(written, yamlKey.keys()), ctx) ?? {}) as Record<string, unknown>
  const channel: Record<string, unknown> = { type }
  for (const [option, value] of Object.entries(checked)) channel[yamlKey.get(option) as string] = value
  if (maxPerHour !== undefined) channel.max_per_hour = maxPerHour
  return outcome(ctx, normalizeChannel(type, channel as unknown as ChannelInput))
}
