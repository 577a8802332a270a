// Channel definitions: how a notice becomes a message on one channel type. `ChannelDefinition` is
// the normalized form agent/config makes (its channels add recipients and senders, which belong to
// the delivery, not here); `compileChannel` compiles its templates once.
import type { ActiveHours } from './active-hours'
import { AlertsError, AlertsErrorCodes } from './errors'
import type { OncallRef } from './schedule'
import { compileTemplate, type Template } from './template'

export type ChannelType = 'sms' | 'chat' | 'mail' | 'voice' | 'incident'

/**
 * Templates per notice kind; `repeat`, `escalated`, `acknowledged` and `unacknowledged` use `firing`.
 * Undefined: the type's default.
 */
export interface KindTemplates {
  firing: string | undefined
  resolved: string | undefined
  digest: string | undefined
}

interface CommonDefinition {
  /** Name used by rules' `notify` and escalation steps. */
  name: string
  /** Budget: most notices per sliding hour; over it they fold into a digest. */
  maxPerHour?: number | undefined
  /** Person names the channel reaches (their addresses are the delivery's): whom its pages count as paged. */
  people?: readonly string[] | undefined
  /** Reaches whoever is on call in this schedule (layer) when a notice is sent, instead of fixed recipients. */
  oncall?: OncallRef | undefined
  /** Outside these hours the channel drops out of every notice. */
  activeHours?: readonly ActiveHours[] | undefined
}

export type ChannelDefinition =
  | (CommonDefinition & { type: 'sms'; template: KindTemplates; maxLength: number })
  | (CommonDefinition & { type: 'chat'; variables: string[] | undefined })
  | (CommonDefinition & { type: 'mail'; subject: KindTemplates })
  | (CommonDefinition & {
      type: 'voice'
      receivers: { label: string; number: string }[]
      audio: { firing: string[]; resolved: string[]; digest: string[] }
    })
  /** Records every notice whatever the step names (the incident trail); renders a title and notes. */
  | (CommonDefinition & { type: 'incident' })

export interface CompiledKindTemplates {
  firing: Template
  resolved: Template
  digest: Template
}

interface CommonChannel {
  name: string
  maxPerHour: number | undefined
  people: readonly string[] | undefined
  oncall: OncallRef | undefined
  activeHours: readonly ActiveHours[] | undefined
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

// `{{headline}}` is the title followed by the line's error (": TypeError: connection refused") when
// it has one: a page should say what broke, not only where.
export const SMS_DEFAULTS: Readonly<Record<keyof KindTemplates, string>> = {
  firing: '{{status}} {{headline}} ({{count}}x, {{rule}})',
  resolved: 'RESOLVED {{title}} after {{count}}x ({{rule}})',
  digest: '{{suppressed}} more alerts suppressed (budget). Latest: {{title}}',
}

export const MAIL_SUBJECT_DEFAULTS: Readonly<Record<keyof KindTemplates, string>> = {
  firing: '[{{status}}] {{headline}}',
  resolved: '[RESOLVED] {{title}}',
  digest: '[DIGEST] {{suppressed}} more alerts suppressed',
}

// Four variables, as before the error was shown: a chat template registered with the provider keeps its count.
export const CHAT_DEFAULT_VARIABLES: readonly string[] = ['{{status}}', '{{headline}}', '{{count}}', '{{rule}}']

export const DEFAULT_SMS_MAX_LENGTH = 160

function kindTemplates(
  written: KindTemplates,
  defaults: Readonly<Record<keyof KindTemplates, string>>,
  path: string,
): CompiledKindTemplates {
  return {
    firing: compileTemplate(written.firing ?? defaults.firing, `${path}.firing`),
    resolved: compileTemplate(written.resolved ?? defaults.resolved, `${path}.resolved`),
    digest: compileTemplate(written.digest ?? defaults.digest, `${path}.digest`),
  }
}

export function compileChannel(def: ChannelDefinition, path = def.name): Channel {
  const common = {
    name: def.name,
    maxPerHour: def.maxPerHour,
    people: def.people,
    oncall: def.oncall,
    activeHours: def.activeHours,
  }
  switch (def.type) {
    case 'sms':
      return {
        ...common,
        type: 'sms',
        templates: kindTemplates(def.template, SMS_DEFAULTS, `${path}.template`),
        maxLength: def.maxLength,
      }
    case 'chat': {
      const variables = def.variables ?? CHAT_DEFAULT_VARIABLES
      return {
        ...common,
        type: 'chat',
        variables: variables.map((v, i) => compileTemplate(v, `${path}.variables[${i}]`)),
      }
    }
    case 'mail':
      return { ...common, type: 'mail', subjects: kindTemplates(def.subject, MAIL_SUBJECT_DEFAULTS, `${path}.subject`) }
    case 'voice':
      return { ...common, type: 'voice', receivers: def.receivers, audio: def.audio }
    case 'incident':
      return { ...common, type: 'incident' }
  }
}

/** Channels by name; a name used twice is a caller's bug (routing could not tell them apart). */
export function compileChannels(defs: readonly ChannelDefinition[]): Channel[] {
  const seen = new Set<string>()
  return defs.map((def, i) => {
    if (seen.has(def.name))
      throw new AlertsError(
        AlertsErrorCodes.INVALID_CHANNEL,
        `channels[${i}].name`,
        `duplicate channel name "${def.name}"`,
      )
    seen.add(def.name)
    return compileChannel(def, `channels[${i}]`)
  })
}
