// The normalized config the agent runs on: durations in ms, regexes compiled, paths absolute,
// references checked, defaults filled in, secrets wrapped so they cannot be printed by accident.
import type { Secret } from './secret'

export interface ListenAddress {
  host: string
  port: number
}

export interface CrmConfig {
  leadWebhook: string
  activityWebhook: string
  activityToken: Secret
}

export type MessagingConfig =
  | {
      /** No base_url: the agent starts the embedded sandbox in-process. */
      mode: 'sandbox'
      listen: ListenAddress
      /** A key the sandbox should accept instead of its default one. */
      apiKey: Secret | undefined
      activityToken: Secret | undefined
    }
  | {
      mode: 'remote'
      baseUrl: string
      apiKey: Secret
      /** Lead and activity webhooks; required when a rule has `incident: true`. */
      crm: CrmConfig | undefined
    }

export type LineFormat = 'json' | 'text' | 'auto'

export interface SourceConfig {
  name: string
  /** Absolute glob patterns. */
  paths: string[]
  format: LineFormat
  startAt: 'end' | 'beginning'
  maxLineBytes: number
  /** Reads on the agent's thread (fs.readSync), not the thread pool. */
  syncReads: boolean
}

export interface KindTemplates {
  firing: string | undefined
  resolved: string | undefined
  digest: string | undefined
}

interface ChannelCommon {
  name: string
  maxPerHour: number | undefined
}

export type ChannelConfig =
  | (ChannelCommon & {
      type: 'sms'
      numbers: string[]
      senderId: string | undefined
      route: string | undefined
      templateId: string | undefined
      template: KindTemplates
      maxLength: number
    })
  | (ChannelCommon & { type: 'chat'; numbers: string[]; templateId: number; variables: string[] | undefined; attachment: string | undefined })
  | (ChannelCommon & { type: 'mail'; from: string; to: string[]; subject: KindTemplates; format: 'html' | 'text' })
  | (ChannelCommon & {
      type: 'voice'
      receivers: { label: string; number: string }[]
      audio: { firing: string[]; resolved: string[]; digest: string[] }
    })

export type ChannelType = ChannelConfig['type']

export type FieldMatch =
  | { kind: 'equals'; path: string; value: string | number | boolean | null }
  | { kind: 'regex'; path: string; regex: RegExp }

export interface EscalationConfig {
  afterMs: number
  notify: string[]
}

export interface RuleConfig {
  name: string
  /** Source names; undefined: every source. */
  sources: string[] | undefined
  minLevel: number
  match: FieldMatch[]
  message: RegExp | undefined
  groupBy: string[] | undefined
  groupWaitMs: number
  repeatIntervalMs: number
  resolveAfterMs: number | undefined
  sendResolved: boolean
  threshold: { count: number; withinMs: number } | undefined
  /** Channels of the first notice (every channel when the rule names none). */
  notify: string[]
  escalate: EscalationConfig[]
  incident: boolean
  title: string | undefined
}

export interface SilenceConfig {
  matchers: FieldMatch[]
  /** Epoch ms; undefined: from when the config loads. */
  startsAt: number | undefined
  endsAt: number
  comment: string | undefined
}

export interface AgentConfig {
  /** The file it was loaded from (for messages), as given. */
  file: string
  messaging: MessagingConfig
  stateDir: string
  sources: SourceConfig[]
  channels: ChannelConfig[]
  rules: RuleConfig[]
  silences: SilenceConfig[]
  /** Dot paths of log fields censored before a line is stored or rendered. */
  redact: string[]
  metrics: { listen: ListenAddress } | undefined
  /** Every secret value, for scrubbing rendered messages and logs. */
  secrets: Secret[]
}
