// What the alert path runs on, whoever calls it: normalized rules, channels and silences (from the
// YAML config or from a target's options, both normalized by agent/config), the redacted paths and
// the strings no message may hold, plus whether incidents get their notes on the CRM.
import type { AlertEngineOptions } from '../../alerts'
import { engineOptionsOf } from '../config/normalize/engine-options'
import type { AgentConfig } from '../config/types'
import { INCIDENT_CHANNEL } from './outbox-items'
import type { AlertSetup } from './types'

/** The daemon's setup: its config, plus the endpoint's own secrets. */
export function setupOfConfig(config: AgentConfig, endpointSecrets: readonly string[]): AlertSetup {
  return {
    rules: config.rules,
    channels: config.channels,
    silences: config.silences,
    redact: config.redact,
    secrets: [...config.secrets.map((s) => s.reveal()), ...endpointSecrets],
    incidentNotes: config.rules.some((r) => r.incident) ? { maxPerHour: undefined } : undefined,
    people: config.people,
    schedules: config.schedules,
    inhibit: config.inhibit,
    // A missed call acknowledges only from a person's phone: without one, pages would promise what cannot work.
    acknowledge: config.people.some((p) => p.phone !== undefined)
      ? { hint: config.acknowledge.hint, voiceAudio: config.acknowledge.voiceAudio }
      : undefined,
  }
}

/**
 * The engine always has the recording channel: every notice, acknowledgements and resolves by hand
 * included, comes out of it as a delivery, which the alert path keeps in the incident state and the
 * timeline. Its deliveries reach the CRM only with `incidentNotes`.
 */
export function engineOptionsOfSetup(setup: AlertSetup, now: number): AlertEngineOptions {
  const recording = { type: 'incident' as const, name: INCIDENT_CHANNEL, maxPerHour: setup.incidentNotes?.maxPerHour }
  const channels = [...setup.channels, recording]
  const options = engineOptionsOf({ ...setup, channels }, now)
  return setup.acknowledge === undefined ? options : { ...options, acknowledge: setup.acknowledge }
}

export function incidentRulesOf(setup: AlertSetup): Set<string> {
  return new Set(setup.rules.filter((r) => r.incident).map((r) => r.name))
}
