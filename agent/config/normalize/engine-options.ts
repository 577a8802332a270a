// The bridge to the alerting domain. Rules, channels and silences are normalized once (from the
// YAML or from a transport target's options) into alerts/' own types, so the engine takes them as
// they are: nothing is written back into an input form and normalized again.
import type { AlertEngineOptions, RedactPath } from '../../../alerts'
import type { ChannelConfig, InhibitRule, RuleConfig, ScheduleConfig, SilenceConfig } from '../types'

/** A channel that records every notice (the CRM trail) and sends nothing: `logx.incident` in the daemon. */
export interface RecordingChannel {
  type: 'incident'
  name: string
  maxPerHour?: number | undefined
}

/** What an engine runs on, whoever calls it: the daemon (its config) or a transport target (its options). */
export interface EngineParts {
  rules: readonly RuleConfig[]
  channels: readonly (ChannelConfig | RecordingChannel)[]
  silences: readonly SilenceConfig[]
  /** What channels' and steps' `oncall` resolve through; a target has none. */
  schedules?: readonly ScheduleConfig[] | undefined
  /** A target has none. */
  inhibit?: readonly InhibitRule[] | undefined
  /** Dot paths censored in every selected line. */
  redact: readonly RedactPath[]
  /** Values no message may hold (API key, tokens, the lead webhook URL), revealed. */
  secrets: readonly string[]
  /** Incidents held at once; default: the engine's (10 000). */
  maxIncidents?: number | undefined
  /** Rules on kinds: the bound, the learning, and the agent's one miner and table (agent/daemon/kinds.ts). */
  kinds?: AlertEngineOptions['kinds']
}

/** The options of alerts' createAlertEngine; `now` is when silences without a start begin. */
export function engineOptionsOf(parts: EngineParts, now: number): AlertEngineOptions {
  return {
    rules: parts.rules,
    channels: parts.channels,
    silences: parts.silences,
    schedules: parts.schedules === undefined ? [] : [...parts.schedules],
    inhibit: parts.inhibit === undefined ? [] : [...parts.inhibit],
    redact: parts.redact,
    secrets: parts.secrets,
    maxIncidents: parts.maxIncidents,
    kinds: parts.kinds,
    now,
  }
}
