// What the alert path runs on, whoever calls it: normalized rules, channels and silences (from the
// YAML config or from a target's options, both normalized by agent/config), the redacted paths and
// the strings no message may hold, plus whether incidents get their notes on the CRM.
import type { AlertEngineOptions } from '../../alerts'
import { engineOptionsOf, type EngineParts } from '../config/engine-options'
import type { AgentConfig, ChannelConfig } from '../config/types'
import { INCIDENT_CHANNEL } from './dispatcher'

export interface AlertSetup extends Omit<EngineParts, 'channels'> {
  /** The channels messages go out on. */
  channels: readonly ChannelConfig[]
  /**
   * Rules whose incidents are recorded on the CRM also get its notes (opened, counts, escalations,
   * resolved) through a recording channel. The daemon and logx-incident want them; a channel target
   * with `incident: true` records only the messages it sends (a logx-incident beside it writes the notes).
   */
  incidentNotes: { maxPerHour: number | undefined } | undefined
}

/** The daemon's setup: its config, plus the endpoint's own secrets. */
export function setupOfConfig(config: AgentConfig, endpointSecrets: readonly string[]): AlertSetup {
  return {
    rules: config.rules,
    channels: config.channels,
    silences: config.silences,
    redact: config.redact,
    secrets: [...config.secrets.map((s) => s.reveal()), ...endpointSecrets],
    incidentNotes: config.rules.some((r) => r.incident) ? { maxPerHour: undefined } : undefined,
  }
}

export function engineOptionsOfSetup(setup: AlertSetup, now: number): AlertEngineOptions {
  const notes = setup.incidentNotes
  const channels = notes === undefined ? setup.channels : [...setup.channels, { type: 'incident' as const, name: INCIDENT_CHANNEL, maxPerHour: notes.maxPerHour }]
  return engineOptionsOf({ ...setup, channels }, now)
}

export function incidentRulesOf(setup: AlertSetup): Set<string> {
  return new Set(setup.rules.filter((r) => r.incident).map((r) => r.name))
}
