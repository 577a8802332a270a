import { tmpdir } from 'node:os'
import { parseAgentConfig, type AgentConfig } from '../../agent/config'
import { readAlertOptions } from '../../agent/config/normalize/target-options'
import { createAlertEngine, type AlertEngine } from '../../alerts/engine'
import { DEFAULT_SMS_MAX_LENGTH, type ChannelDefinition, type KindTemplates } from '../../alerts/channels'
import { parseLine, type AlertLine } from '../../alerts/line'
import type { IncidentSnapshot } from '../../alerts/notice'
import { compileRule, type Rule, type RuleConfig } from '../../alerts/rule'
import type { SilenceConfig } from '../../alerts/silences'

/** A JSON log line as logx writes it. */
export function jsonLine(fields: Record<string, unknown>): AlertLine {
  return parseLine(JSON.stringify({ level: 50, time: 0, msg: 'boom', ...fields }))
}

/** An incident as a notice carries it: firing since 0, paged to nobody; `extra` overrides. */
export function snapshotOf(line: AlertLine, extra: Partial<IncidentSnapshot> = {}): IncidentSnapshot {
  return {
    key: 'r:1',
    rule: 'r',
    title: line.msg,
    parts: [],
    status: 'firing',
    ack: undefined,
    firstSeen: 0,
    lastSeen: 0,
    firedAt: 0,
    notifiedAt: 0,
    pagedTo: {},
    count: 1,
    step: 0,
    firstLine: line,
    lastLine: line,
    ...extra,
  }
}

/** A fake clock: tests move time explicitly. */
export function createClock(start = 1_700_000_000_000): { now(): number; advance(ms: number): number } {
  let t = start
  return {
    now: () => t,
    advance(ms: number) {
      t += ms
      return t
    },
  }
}

// ---- rules, silences and channels as people write them ---------------------------------------
// The engine takes normalized rules, silences and channels (agent/config makes them). These tests
// write rules and silences in the rule vocabulary (the YAML's keys) through the one normalizer, and
// channels in a short written form of the rendering keys only (no recipients: the engine has none).

/** A channel's rendering keys as written: `{ type: 'sms', max_length: 20, template: '{{title}}' }`. */
export interface TestChannel {
  type: ChannelDefinition['type']
  name?: string
  max_per_hour?: number
  template?: string | Partial<KindTemplates>
  max_length?: number
  variables?: string[]
  subject?: string | Partial<KindTemplates>
  receivers?: { label: string; number: string }[]
  audio?: string[] | { firing: string[]; resolved?: string[]; digest?: string[] }
}

const kinds = (written: string | Partial<KindTemplates> | undefined): KindTemplates =>
  typeof written === 'string'
    ? { firing: written, resolved: undefined, digest: undefined }
    : { firing: written?.firing, resolved: written?.resolved, digest: written?.digest }

export function channelOf(c: TestChannel): ChannelDefinition {
  const common = { name: c.name ?? c.type, maxPerHour: c.max_per_hour }
  switch (c.type) {
    case 'sms':
      return { ...common, type: 'sms', template: kinds(c.template), maxLength: c.max_length ?? DEFAULT_SMS_MAX_LENGTH }
    case 'chat':
      return { ...common, type: 'chat', variables: c.variables }
    case 'mail':
      return { ...common, type: 'mail', subject: kinds(c.subject) }
    case 'voice': {
      const audio = c.audio ?? []
      const byKind = Array.isArray(audio) ? { firing: audio, resolved: audio, digest: audio } : audio
      return {
        ...common,
        type: 'voice',
        receivers: c.receivers ?? [],
        audio: {
          firing: byKind.firing,
          resolved: byKind.resolved ?? byKind.firing,
          digest: byKind.digest ?? byKind.firing,
        },
      }
    }
    case 'incident':
      return { ...common, type: 'incident' }
  }
}

function read(
  written: { rules?: unknown; silences?: unknown },
  channels: readonly string[],
): { rules: RuleConfig[]; silences: SilenceConfig[] } {
  const result = readAlertOptions(written, channels)
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
  return result.value
}

/** Rules in order (none: the default rule); a rule without `notify` notifies `channels`. */
export function rulesOf(written: unknown[] | undefined, channels: readonly string[] = []): RuleConfig[] {
  return read(written === undefined ? {} : { rules: written }, channels).rules
}

/** One rule, compiled as the engine runs it. */
export function ruleOf(written: Record<string, unknown> = {}, channels: readonly string[] = []): Rule {
  return compileRule(rulesOf([written], channels)[0] as RuleConfig)
}

export function silenceOf(written: Record<string, unknown>): SilenceConfig {
  return read({ silences: [written] }, []).silences[0] as SilenceConfig
}

export interface TestEngineOptions {
  rules?: unknown[]
  channels: TestChannel[]
  silences?: Record<string, unknown>[]
  redact?: string[]
  secrets?: string[]
  maxIncidents?: number
  now?: number
}

/** An engine on rules and silences as written and channels in their short form. */
export function createTestEngine(options: TestEngineOptions): AlertEngine {
  const channels = options.channels.map(channelOf)
  const { rules, silences } = read(
    {
      ...(options.rules === undefined ? {} : { rules: options.rules }),
      ...(options.silences === undefined ? {} : { silences: options.silences }),
    },
    channels.filter((c) => c.type !== 'incident').map((c) => c.name),
  )
  return createAlertEngine({
    rules,
    channels,
    silences,
    redact: options.redact?.map((path) => path.split('.')),
    secrets: options.secrets,
    maxIncidents: options.maxIncidents,
    now: options.now,
  })
}

// ---- a whole agent config, for what only the YAML has -----------------------------------------
// People, a rule's ack_timeout and an escalation step's people exist in the agent's YAML only (a
// transport target has none): these engines are made from a config as a user writes it, through
// agent/config's one loader, plus a recording channel (`crm`, the daemon's CRM trail).

export interface ConfiguredEngineOptions {
  /** The YAML's sections (people, channels, rules, silences, acknowledge); `sources` has a default. */
  config: Record<string, unknown>
  /** Budget of the recording channel `crm`; undefined: unlimited. */
  crmMaxPerHour?: number
  now?: number
}

export function configOf(written: Record<string, unknown>): AgentConfig {
  const result = parseAgentConfig(
    JSON.stringify({ sources: [{ name: 'app', paths: ['./app.log'] }], ...written }),
    'test.yaml',
    { env: {}, cwd: tmpdir() },
  )
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
  return result.config
}

/** An engine as the daemon makes one from `config`, with `crm` recording every notice. */
export function createConfiguredEngine(options: ConfiguredEngineOptions): AlertEngine {
  const config = configOf(options.config)
  return createAlertEngine({
    rules: config.rules,
    channels: [...config.channels, { type: 'incident', name: 'crm', maxPerHour: options.crmMaxPerHour }],
    silences: config.silences,
    now: options.now,
    acknowledge: { hint: config.acknowledge.hint, voiceAudio: config.acknowledge.voiceAudio },
  })
}
