// The bridge to the alerting domain: a normalized config as alerts/ engine options. alerts/ has its
// own written form (it also serves transport options), so this maps names: notify -> channels,
// escalate -> escalation, match -> fields, message -> msg.
import type {
  AlertEngineOptions,
  ChannelInput as AlertChannelInput,
  FieldMatcherInput,
  KindTemplates as AlertKindTemplates,
  RuleInput as AlertRuleInput,
  SilenceInput as AlertSilenceInput,
} from '../../alerts'
import type { AgentConfig, ChannelConfig, FieldMatch, KindTemplates, RuleConfig, SilenceConfig } from './types'

function fields(matches: readonly FieldMatch[]): Record<string, FieldMatcherInput> {
  const out: Record<string, FieldMatcherInput> = {}
  for (const m of matches) {
    const value: FieldMatcherInput = m.kind === 'regex' ? { regex: m.regex.source, flags: m.regex.flags } : m.value
    Object.defineProperty(out, m.path, { value, enumerable: true, writable: true, configurable: true })
  }
  return out
}

function kindTemplates(t: KindTemplates): AlertKindTemplates | undefined {
  const out: AlertKindTemplates = {}
  if (t.firing !== undefined) out.firing = t.firing
  if (t.resolved !== undefined) out.resolved = t.resolved
  if (t.digest !== undefined) out.digest = t.digest
  return Object.keys(out).length === 0 ? undefined : out
}

export function toAlertRule(rule: RuleConfig): AlertRuleInput {
  const out: AlertRuleInput = {
    name: rule.name,
    level: rule.minLevel,
    group_wait: rule.groupWaitMs,
    repeat_interval: rule.repeatIntervalMs,
    send_resolved: rule.sendResolved,
  }
  if (rule.match.length > 0) out.fields = fields(rule.match)
  if (rule.message !== undefined) out.msg = { regex: rule.message.source, flags: rule.message.flags }
  if (rule.sources !== undefined) out.source = rule.sources
  if (rule.groupBy !== undefined) out.group_by = rule.groupBy
  if (rule.resolveAfterMs !== undefined) out.resolve_after = rule.resolveAfterMs
  if (rule.threshold !== undefined) out.threshold = { count: rule.threshold.count, within: rule.threshold.withinMs }
  if (rule.title !== undefined) out.title = rule.title
  if (rule.escalate.length === 0) out.channels = rule.notify
  else {
    out.escalation = [
      { after: 0, channels: rule.notify },
      ...rule.escalate.map((step) => ({ after: step.afterMs, channels: step.notify })),
    ]
  }
  return out
}

export function toAlertChannel(channel: ChannelConfig): AlertChannelInput {
  const common = channel.maxPerHour === undefined ? { name: channel.name } : { name: channel.name, max_per_hour: channel.maxPerHour }
  switch (channel.type) {
    case 'sms': {
      const template = kindTemplates(channel.template)
      return { ...common, type: 'sms', max_length: channel.maxLength, ...(template === undefined ? {} : { template }) }
    }
    case 'chat':
      return { ...common, type: 'chat', ...(channel.variables === undefined ? {} : { variables: channel.variables }) }
    case 'mail': {
      const subject = kindTemplates(channel.subject)
      return { ...common, type: 'mail', ...(subject === undefined ? {} : { subject }) }
    }
    case 'voice':
      return { ...common, type: 'voice', receivers: channel.receivers, audio: channel.audio }
  }
}

export function toAlertSilence(silence: SilenceConfig): AlertSilenceInput {
  const out: AlertSilenceInput = { matchers: fields(silence.matchers), ends_at: silence.endsAt }
  if (silence.startsAt !== undefined) out.starts_at = silence.startsAt
  if (silence.comment !== undefined) out.comment = silence.comment
  return out
}

/** Options for alerts' createAlertEngine; secrets are revealed only into its scrubbing list. */
export function toAlertEngineOptions(config: AgentConfig, now: number): AlertEngineOptions {
  return {
    rules: config.rules.map(toAlertRule),
    channels: config.channels.map(toAlertChannel),
    silences: config.silences.map(toAlertSilence),
    redact: config.redact,
    secrets: config.secrets.map((s) => s.reveal()),
    now,
  }
}
