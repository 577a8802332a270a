// The config as written in YAML (snake_case), after `${VAR}` and `*_file` references are resolved;
// a transport target's `rules` and `silences` options are written the same way. agent-shape.ts
// describes the same structure for the checker; a test keeps the two key sets equal.
import type { IntakeInput, IntakeTypeName } from './intake-shape'

export type DurationInput = string | number
/** A value compared for equality, or a `/pattern/flags` string. */
export type MatchValueInput = string | number | boolean | null

export interface KindTemplatesInput {
  firing?: string
  resolved?: string
  digest?: string
}

export interface MessagingInput {
  base_url?: string
  api_key?: string
  lead_webhook?: string
  activity_webhook?: string
  activity_token?: string
  sandbox?: { listen?: string; allow_remote?: boolean }
}

/** A multi-line rule: exactly one of `preset`, `start`, `continue`. */
export interface MultilineInput {
  preset?: 'java' | 'python' | 'go' | 'node'
  start?: string
  continue?: string
  max_lines?: number
  timeout?: string | number
}

export interface SourceInput extends IntakeInput {
  name: string
  /** Default `file`. */
  type?: 'file' | 'journald' | IntakeTypeName
  /** Required for a file source; a journald source has none. */
  paths?: string | string[]
  exclude?: string | string[]
  follow_symlinks?: 'inside' | 'outside' | 'never' | string[]
  format?: 'json' | 'text' | 'auto' | 'docker' | 'cri'
  multiline?: 'java' | 'python' | 'go' | 'node' | MultilineInput
  start_at?: 'end' | 'beginning'
  max_line_bytes?: number
  sync_reads?: boolean
  /** journald sources only. */
  units?: string | string[]
  /** A syslog severity, 0..7, or its name (emerg .. debug). */
  priority?: number | 'emerg' | 'alert' | 'crit' | 'err' | 'warning' | 'notice' | 'info' | 'debug'
  journal_files?: string | string[]
}

/** One range of active hours; `days` are `mon`..`sun` or `monday`..`sunday`, times `HH:MM`. */
export interface ActiveHoursInput {
  time_zone?: string
  days?: string | string[]
  from?: string
  to?: string
}

interface ChannelCommonInput {
  max_per_hour?: number
  /** Requests in flight at once on this channel; default 4. */
  concurrency?: number
  /** Names from `people`; without them (or `oncall`) the recipients (`numbers`, `to`, `receivers`) are required. */
  people?: string | string[]
  /** `schedule` or `schedule/layer`. */
  oncall?: string
  active_hours?: ActiveHoursInput | ActiveHoursInput[]
}

export interface LayerInput {
  name: string
  users: string | string[]
  /** `daily`, `weekly` or `every <duration>`. */
  rotation: string
  /** `HH:MM`. */
  handoff?: string
  handoff_day?: string
  /** `YYYY-MM-DD`. */
  start: string
  time_zone?: string
}

export interface OverrideInput {
  user: string
  /** `YYYY-MM-DDTHH:MM`, local in the schedule's zone unless it ends in `Z` or an offset. */
  from: string
  to: string
  layer?: string
}

export interface ScheduleInput {
  time_zone?: string
  layers: LayerInput[]
  overrides?: OverrideInput[]
}

export interface InhibitInput {
  source: Record<string, MatchValueInput>
  target: Record<string, MatchValueInput>
  equal?: string | string[]
}

export interface PersonInput {
  phone?: string
  email?: string
  chat?: string
}

export type ChannelInput =
  | (ChannelCommonInput & {
      type: 'sms'
      numbers?: string | string[]
      sender_id?: string
      route?: string
      template_id?: string
      template?: string | KindTemplatesInput
      max_length?: number
    })
  | (ChannelCommonInput & {
      type: 'chat'
      numbers?: string | string[]
      template_id: number
      variables?: string[]
      attachment?: string
    })
  | (ChannelCommonInput & {
      type: 'mail'
      from: string
      to?: string | string[]
      subject?: string | KindTemplatesInput
      format?: 'html' | 'text'
    })
  | (ChannelCommonInput & {
      type: 'voice'
      receivers?: { label: string; number: string }[]
      audio: string[] | { firing: string[]; resolved?: string[]; digest?: string[] }
    })

export interface EscalationInput {
  after: DurationInput
  notify: string | string[]
  people?: string | string[]
  oncall?: string
  active_hours?: ActiveHoursInput | ActiveHoursInput[]
}

export interface RuleInput {
  name?: string
  source?: string | string[]
  level?: string | number
  match?: Record<string, MatchValueInput>
  message?: string
  group_by?: string[]
  group_wait?: DurationInput
  repeat_interval?: DurationInput
  resolve_after?: DurationInput
  ack_timeout?: DurationInput
  send_resolved?: boolean
  threshold?: { count: number; within: DurationInput }
  notify?: string | string[]
  escalate?: EscalationInput[]
  incident?: boolean
  title?: string
  absent?: { for: DurationInput }
  kind?: 'new' | 'regressed'
  min_count?: number
  within?: DurationInput
  quiet?: DurationInput
  deploys?: { source?: string | string[]; match: Record<string, MatchValueInput> }
  spike?: { factor: number; baseline: DurationInput; window?: DurationInput; min?: number }
  ratio?: { above: string; within: DurationInput; min_lines?: number }
}

export interface SilenceInput {
  id?: string
  matchers: Record<string, MatchValueInput>
  /** An ISO date, or epoch milliseconds. */
  starts_at?: string | number
  ends_at: string | number
  comment?: string
}

export interface AcknowledgeInput {
  missed_call_number?: string
  poll_interval?: DurationInput
  ack_all?: boolean
  hint?: string
  voice_audio?: string
}

export interface ConsoleInput {
  enabled?: boolean
  /** Also `token_file`, read into `token` by the checker. */
  token?: string
}

/** `ca_file`, `cert_file` and `key_file` are read into `ca`, `cert` and `key` by the checker. */
export interface ClusterTlsInput {
  ca?: string
  cert?: string
  key?: string
  reject_unauthorized?: boolean
}

export interface ClusterRedisInput {
  url: string
  key_prefix?: string
  username?: string
  /** Also `password_file`, read into `password` by the checker. */
  password?: string
  tls?: boolean | ClusterTlsInput
}

export interface ClusterInput {
  agent_id?: string
  redis: ClusterRedisInput
  lease?: DurationInput
  heartbeat?: DurationInput
  flush?: DurationInput
  command_timeout?: DurationInput
}

/** `digest:` (digest-shape.ts). */
export interface DigestInput {
  every?: DurationInput
  at?: string
  time_zone?: string
  notify: string | string[]
}

export interface AgentConfigInput {
  messaging?: MessagingInput
  state_dir?: string
  sources: SourceInput[]
  people?: Record<string, PersonInput>
  schedules?: Record<string, ScheduleInput>
  channels: Record<string, ChannelInput>
  rules?: RuleInput[]
  silences?: SilenceInput[]
  inhibit?: InhibitInput[]
  redact?: string[]
  metrics?: { listen: string }
  acknowledge?: AcknowledgeInput
  console?: ConsoleInput
  cluster?: ClusterInput
  digest?: DigestInput
  kinds?: { max?: number; learn?: DurationInput }
}
