// Channel definitions: how a notice becomes a message on one channel type. Recipients, senders and
// credentials are not here: they belong to the transport that delivers (agent/transports).
import { AlertsError, AlertsErrorCodes } from './errors'
import { compileTemplate, type Template } from './template'

export type ChannelType = 'sms' | 'chat' | 'mail' | 'voice' | 'incident'

interface CommonInput {
  /** Name used by rules' `channels` and escalation steps; default: the type. */
  name?: string
  /** Budget: most notices per sliding hour; over it they fold into a digest. */
  max_per_hour?: number
}

/** Templates per notice kind; `repeat` and `escalated` fall back to `firing`. */
export interface KindTemplates {
  firing?: string
  resolved?: string
  digest?: string
}

export type ChannelInput =
  | (CommonInput & { type: 'sms'; template?: string | KindTemplates; max_length?: number })
  | (CommonInput & { type: 'chat'; variables?: string[] })
  | (CommonInput & { type: 'mail'; subject?: string | KindTemplates })
  | (CommonInput & {
      type: 'voice'
      receivers?: { label: string; number: string }[]
      audio?: string[] | { firing?: string[]; resolved?: string[]; digest?: string[] }
    })
  | (CommonInput & { type: 'incident' })

export interface CompiledKindTemplates {
  firing: Template
  resolved: Template
  digest: Template
}

interface CommonChannel {
  name: string
  maxPerHour: number | undefined
}

export type Channel =
  | (CommonChannel & { type: 'sms'; templates: CompiledKindTemplates; maxLength: number })
  | (CommonChannel & { type: 'chat'; variables: Template[] })
  | (CommonChannel & { type: 'mail'; subjects: CompiledKindTemplates })
  | (CommonChannel & {
      type: 'voice'
      receivers: { label: string; number: string }[]
      audio: { firing: string[]; resolved: string[]; digest: string[] }
    })
  | (CommonChannel & { type: 'incident' })

export const SMS_DEFAULTS: Required<KindTemplates> = {
  firing: '{{status}} {{title}} ({{count}}x, {{rule}})',
  resolved: 'RESOLVED {{title}} after {{count}}x ({{rule}})',
  digest: '{{suppressed}} more alerts suppressed (budget). Latest: {{title}}',
}

export const MAIL_SUBJECT_DEFAULTS: Required<KindTemplates> = {
  firing: '[{{status}}] {{title}}',
  resolved: '[RESOLVED] {{title}}',
  digest: '[DIGEST] {{suppressed}} more alerts suppressed',
}

export const CHAT_DEFAULT_VARIABLES = ['{{status}}', '{{title}}', '{{count}}', '{{rule}}']

const TYPES: ReadonlySet<string> = new Set(['sms', 'chat', 'mail', 'voice', 'incident'])

function fail(path: string, message: string): never {
  throw new AlertsError(AlertsErrorCodes.INVALID_CHANNEL, path, message)
}

function kindTemplates(input: unknown, defaults: Required<KindTemplates>, path: string): CompiledKindTemplates {
  const written: KindTemplates =
    input === undefined ? {} : typeof input === 'string' ? { firing: input } : (input as KindTemplates)
  if (typeof written !== 'object' || written === null) fail(path, 'expected a template or { firing, resolved, digest }')
  return {
    firing: compileTemplate(written.firing ?? defaults.firing, `${path}.firing`),
    resolved: compileTemplate(written.resolved ?? defaults.resolved, `${path}.resolved`),
    digest: compileTemplate(written.digest ?? defaults.digest, `${path}.digest`),
  }
}

function positiveInt(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || (value as number) < 1) fail(path, 'expected an integer >= 1')
  return value as number
}

export function normalizeChannel(input: unknown, path: string): Channel {
  if (typeof input !== 'object' || input === null) fail(path, 'expected an object with a type')
  const c = input as ChannelInput & Record<string, unknown>
  if (typeof c.type !== 'string' || !TYPES.has(c.type)) fail(`${path}.type`, 'expected one of sms, chat, mail, voice, incident')
  const name = c.name ?? c.type
  if (typeof name !== 'string' || name === '') fail(`${path}.name`, 'expected a non-empty string')
  const common = { name, maxPerHour: positiveInt(c.max_per_hour, `${path}.max_per_hour`) }
  switch (c.type) {
    case 'sms':
      return {
        ...common,
        type: 'sms',
        templates: kindTemplates(c.template, SMS_DEFAULTS, `${path}.template`),
        maxLength: positiveInt(c.max_length, `${path}.max_length`) ?? 160,
      }
    case 'chat': {
      const vars = c.variables ?? CHAT_DEFAULT_VARIABLES
      if (!Array.isArray(vars) || !vars.every((v) => typeof v === 'string')) fail(`${path}.variables`, 'expected a list of templates')
      return { ...common, type: 'chat', variables: vars.map((v, i) => compileTemplate(v, `${path}.variables[${i}]`)) }
    }
    case 'mail':
      return { ...common, type: 'mail', subjects: kindTemplates(c.subject, MAIL_SUBJECT_DEFAULTS, `${path}.subject`) }
    case 'voice': {
      const audio = c.audio ?? []
      const byKind = Array.isArray(audio) ? { firing: audio, resolved: audio, digest: audio } : audio
      const firing = byKind.firing ?? []
      return {
        ...common,
        type: 'voice',
        receivers: c.receivers ?? [],
        audio: { firing, resolved: byKind.resolved ?? firing, digest: byKind.digest ?? firing },
      }
    }
    case 'incident':
      return { ...common, type: 'incident' }
  }
}

export function normalizeChannels(input: unknown, path = 'channels'): Channel[] {
  if (!Array.isArray(input) || input.length === 0) fail(path, 'expected a non-empty list of channels')
  const channels = input.map((c: unknown, i: number) => normalizeChannel(c, `${path}[${i}]`))
  const seen = new Set<string>()
  channels.forEach((c, i) => {
    if (seen.has(c.name)) fail(`${path}[${i}].name`, `duplicate channel name "${c.name}"`)
    seen.add(c.name)
  })
  return channels
}
