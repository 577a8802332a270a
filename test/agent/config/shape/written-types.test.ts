// written-types.ts (the TypeScript view of the YAML) and agent-shape.ts (what the loader accepts)
// must list the same keys. Each record below must name exactly the keys of its written type — the
// compiler rejects a missing or an extra one — and the test compares them with the shape.
import { describe, expect, it } from 'vitest'
import { agentShape } from '../../../../agent/config/shape/agent-shape'
import { channelShape } from '../../../../agent/config/shape/channel-shape'
import { personShape } from '../../../../agent/config/shape/people-shape'
import { ruleShape, silenceShape } from '../../../../agent/config/shape/rule-shape'
import { sourceShape } from '../../../../agent/config/shape/source-shape'
import type { ObjectShape, Shape } from '../../../../agent/config/shape/shape'
import type {
  AcknowledgeInput,
  ActiveHoursInput,
  AgentConfigInput,
  ChannelInput,
  ConsoleInput,
  DigestInput,
  EscalationInput,
  InhibitInput,
  LayerInput,
  MessagingInput,
  OverrideInput,
  PersonInput,
  RuleInput,
  ScheduleInput,
  SilenceInput,
  SourceInput,
} from '../../../../agent/config/shape/written-types'

type KeysOf<T> = { [K in keyof Required<T>]: true }
type Variant<T extends ChannelInput['type']> = Extract<ChannelInput, { type: T }>

const written = {
  root: {
    messaging: true,
    state_dir: true,
    sources: true,
    people: true,
    schedules: true,
    channels: true,
    rules: true,
    silences: true,
    inhibit: true,
    redact: true,
    metrics: true,
    acknowledge: true,
    console: true,
    cluster: true,
    digest: true,
    kinds: true,
  } satisfies KeysOf<AgentConfigInput>,
  kinds: { max: true, learn: true } satisfies KeysOf<NonNullable<AgentConfigInput['kinds']>>,
  schedule: { time_zone: true, layers: true, overrides: true } satisfies KeysOf<ScheduleInput>,
  layer: {
    name: true,
    users: true,
    rotation: true,
    handoff: true,
    handoff_day: true,
    start: true,
    time_zone: true,
  } satisfies KeysOf<LayerInput>,
  override: { user: true, from: true, to: true, layer: true } satisfies KeysOf<OverrideInput>,
  activeHours: { time_zone: true, days: true, from: true, to: true } satisfies KeysOf<ActiveHoursInput>,
  inhibit: { source: true, target: true, equal: true } satisfies KeysOf<InhibitInput>,
  person: { phone: true, email: true, chat: true } satisfies KeysOf<PersonInput>,
  acknowledge: {
    missed_call_number: true,
    poll_interval: true,
    ack_all: true,
    hint: true,
    voice_audio: true,
  } satisfies KeysOf<AcknowledgeInput>,
  console: { enabled: true, token: true } satisfies KeysOf<ConsoleInput>,
  digest: { every: true, at: true, time_zone: true, notify: true } satisfies KeysOf<DigestInput>,
  messaging: {
    base_url: true,
    api_key: true,
    lead_webhook: true,
    activity_webhook: true,
    activity_token: true,
    sandbox: true,
  } satisfies KeysOf<MessagingInput>,
  source: {
    name: true,
    type: true,
    units: true,
    priority: true,
    journal_files: true,
    paths: true,
    exclude: true,
    follow_symlinks: true,
    format: true,
    multiline: true,
    start_at: true,
    max_line_bytes: true,
    sync_reads: true,
    listen: true,
    token: true,
    tls: true,
    max_body: true,
    rate_limit: true,
    path: true,
    severity_label: true,
    severity_levels: true,
    send_resolved: true,
    protocol: true,
  } satisfies KeysOf<SourceInput>,
  rule: {
    name: true,
    source: true,
    level: true,
    match: true,
    message: true,
    group_by: true,
    group_wait: true,
    repeat_interval: true,
    resolve_after: true,
    ack_timeout: true,
    send_resolved: true,
    threshold: true,
    notify: true,
    escalate: true,
    incident: true,
    title: true,
    absent: true,
    kind: true,
    min_count: true,
    within: true,
    quiet: true,
    deploys: true,
    spike: true,
    ratio: true,
  } satisfies KeysOf<RuleInput>,
  deploys: { source: true, match: true } satisfies KeysOf<NonNullable<RuleInput['deploys']>>,
  spike: { factor: true, baseline: true, window: true, min: true } satisfies KeysOf<NonNullable<RuleInput['spike']>>,
  ratio: { above: true, within: true, min_lines: true } satisfies KeysOf<NonNullable<RuleInput['ratio']>>,
  absent: { for: true } satisfies KeysOf<NonNullable<RuleInput['absent']>>,
  escalate: {
    after: true,
    notify: true,
    people: true,
    oncall: true,
    active_hours: true,
  } satisfies KeysOf<EscalationInput>,
  silence: { id: true, matchers: true, starts_at: true, ends_at: true, comment: true } satisfies KeysOf<SilenceInput>,
  sms: {
    type: true,
    numbers: true,
    people: true,
    sender_id: true,
    route: true,
    template_id: true,
    template: true,
    max_length: true,
    max_per_hour: true,
    concurrency: true,
    oncall: true,
    active_hours: true,
  } satisfies KeysOf<Variant<'sms'>>,
  chat: {
    type: true,
    numbers: true,
    people: true,
    template_id: true,
    variables: true,
    attachment: true,
    max_per_hour: true,
    concurrency: true,
    oncall: true,
    active_hours: true,
  } satisfies KeysOf<Variant<'chat'>>,
  mail: {
    type: true,
    from: true,
    to: true,
    people: true,
    subject: true,
    format: true,
    max_per_hour: true,
    concurrency: true,
    oncall: true,
    active_hours: true,
  } satisfies KeysOf<Variant<'mail'>>,
  voice: {
    type: true,
    receivers: true,
    people: true,
    audio: true,
    max_per_hour: true,
    concurrency: true,
    oncall: true,
    active_hours: true,
  } satisfies KeysOf<Variant<'voice'>>,
}

const keys = (record: object): string[] => Object.keys(record).sort()
const fields = (shape: ObjectShape): string[] => Object.keys(shape.fields).sort()

function asObject(shape: Shape | undefined): ObjectShape {
  if (shape?.kind === 'object') return shape
  if (shape?.kind === 'list') return asObject(shape.items)
  throw new Error(`expected an object shape, got ${shape?.kind}`)
}

describe('written types and the loader shape', () => {
  it('list the same keys', () => {
    expect(keys(written.root)).toEqual(fields(agentShape))
    expect(keys(written.messaging)).toEqual(fields(asObject(agentShape.fields.messaging?.shape)))
    expect(keys(written.person)).toEqual(fields(personShape))
    expect(keys(written.acknowledge)).toEqual(fields(asObject(agentShape.fields.acknowledge?.shape)))
    expect(keys(written.console)).toEqual(fields(asObject(agentShape.fields.console?.shape)))
    expect(keys(written.digest)).toEqual(fields(asObject(agentShape.fields.digest?.shape)))
    expect(keys(written.source)).toEqual(fields(sourceShape))
    expect(keys(written.rule)).toEqual(fields(ruleShape))
    expect(keys(written.escalate)).toEqual(fields(asObject(ruleShape.fields.escalate?.shape)))
    expect(keys(written.silence)).toEqual(fields(silenceShape))
    const schedules = agentShape.fields.schedules?.shape
    if (schedules?.kind !== 'map') throw new Error('schedules are a map')
    const schedule = asObject(schedules.values)
    expect(keys(written.schedule)).toEqual(fields(schedule))
    expect(keys(written.layer)).toEqual(fields(asObject(schedule.fields.layers?.shape)))
    expect(keys(written.override)).toEqual(fields(asObject(schedule.fields.overrides?.shape)))
    expect(keys(written.inhibit)).toEqual(fields(asObject(agentShape.fields.inhibit?.shape)))
    expect(keys(written.absent)).toEqual(fields(asObject(ruleShape.fields.absent?.shape)))
    expect(keys(written.kinds)).toEqual(fields(asObject(agentShape.fields.kinds?.shape)))
    for (const key of ['deploys', 'spike', 'ratio'] as const)
      expect(keys(written[key]), key).toEqual(fields(asObject(ruleShape.fields[key]?.shape)))
    const step = asObject(ruleShape.fields.escalate?.shape)
    expect(keys(written.activeHours)).toEqual(fields(asObject(step.fields.active_hours?.shape)))
    if (channelShape.kind !== 'tagged') throw new Error('channels are a tagged union')
    for (const type of ['sms', 'chat', 'mail', 'voice'] as const) {
      const variant = channelShape.variants[type]
      expect(variant, type).toBeDefined()
      if (variant !== undefined)
        expect(keys(written[type]), type).toEqual([channelShape.tag, ...Object.keys(variant.fields)].sort())
    }
    expect(Object.keys(channelShape.variants).sort()).toEqual(['chat', 'mail', 'sms', 'voice'])
  })
})
