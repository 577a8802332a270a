// The normalized config the agent runs on: durations in ms, regexes compiled, paths absolute,
// references checked, defaults filled in, secrets wrapped so they cannot be printed by accident.
// Rules, silences and what the engine needs of a channel are alerts/' types (the lowest module
// that owns them); a channel here adds its recipients and senders. The transport targets' options
// normalize to these same types.
import type {
  ActiveHours,
  ChannelDefinition,
  EscalationConfig,
  FieldMatch,
  InhibitRule,
  KindTemplates,
  LayerConfig,
  OncallRef,
  OverrideConfig,
  RedactPath,
  Rotation,
  RuleConfig,
  ScheduleConfig,
  SilenceConfig,
} from '../../alerts'
import type { FollowSymlinks } from '../tail/link-decision'
import type { Secret } from './values/secret'

export type {
  ActiveHours,
  EscalationConfig,
  FieldMatch,
  InhibitRule,
  KindTemplates,
  LayerConfig,
  OncallRef,
  OverrideConfig,
  Rotation,
  RuleConfig,
  ScheduleConfig,
  SilenceConfig,
}

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
      /** `sandbox.allow_remote`: `listen` may be an address that is not loopback. */
      allowRemote: boolean
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

/**
 * `docker` and `cri`: container log files, whose inner text is then read as `auto`
 * (agent/events/container-lines.ts).
 */
export type LineFormat = 'json' | 'text' | 'auto' | 'docker' | 'cri'

/** What a `type: journald` source reads (through journalctl; agent/journald/). */
export interface JournaldSourceConfig {
  /** `journalctl --unit`, any of them; [] reads every unit. */
  units: string[]
  /** `journalctl --priority`: this syslog severity (0 emerg .. 7 debug) and the more severe; undefined reads all. */
  priority: number | undefined
  /** Absolute globs given to `journalctl --file`; [] reads the system journal. */
  journalFiles: string[]
}

export type MultilinePreset = 'java' | 'python' | 'go' | 'node'

/** How a source tells a line that continues an event from one that starts the next. */
export type MultilineMatch =
  | { kind: 'preset'; preset: MultilinePreset }
  /** A line matching `pattern` starts an event; any other continues the one before. */
  | { kind: 'start'; pattern: RegExp }
  /** A line matching `pattern` continues the event before it; any other starts one. */
  | { kind: 'continue'; pattern: RegExp }

export interface MultilineConfig {
  match: MultilineMatch
  /** An event is ended after this many lines. */
  maxLines: number
  /** A quiet file's last event is ended this long after its last line. */
  timeoutMs: number
}

/** A syslog source (agent/intake/syslog/): which transports, how long a message may be. */
export interface SyslogIntakeConfig {
  tcp: boolean
  udp: boolean
  maxLineBytes: number
}

/** Network sources (agent/intake/): they listen rather than read. */
export type IntakeType = 'alertmanager' | 'grafana' | 'syslog' | 'otlp' | 'http'

/** An intake's TLS: the PEM files' contents, read at load. */
export interface IntakeTlsConfig {
  cert: string
  key: Secret
  /** CA(s) a client certificate must chain to; set: a client without one is refused (no token needed). */
  clientCa: string | undefined
}

/** Requests per client address (`rate_limit: { requests, per }`); past it: 429 with Retry-After. */
export interface IntakeRateLimit {
  requests: number
  perMs: number
}

/** An alertmanager or grafana source's own keys (agent/intake/alertmanager/). */
export interface AlertmanagerIntakeConfig {
  /** `severity_label`: the label whose value names an alert's level (default `severity`). */
  severityLabel: string
  /** `severity_levels`: label values (lower case) to level numbers, over the built-in table. */
  severityLevels: Record<string, number>
  /** `send_resolved` (default true): a resolved alert tells whoever was paged; false: only the incident's record. */
  sendResolved: boolean
}

/** What every intake source has (`sources[].listen`, `token`, `tls`, `max_body`, `rate_limit`, `path`). */
export interface IntakeConfig {
  listen: ListenAddress
  /** Bearer token a request must carry; required off loopback unless `tls.clientCa` is set. */
  token: Secret | undefined
  tls: IntakeTlsConfig | undefined
  maxBodyBytes: number
  rateLimit: IntakeRateLimit
  /** The HTTP paths it takes ([] for syslog): http `/ingest/<name>`, otlp `/v1/logs`, alertmanager `/` or `path`. */
  paths: string[]
  // The intake types add their own keys below (alertmanager, syslog, otlp).
  /** A syslog source's own keys; undefined for the other types. */
  syslog?: SyslogIntakeConfig | undefined
  /** An alertmanager or grafana source's keys; undefined for the other types. */
  alertmanager?: AlertmanagerIntakeConfig | undefined
}

export interface SourceConfig {
  name: string
  /**
   * `file` tails `paths`; `journald` reads the journal (`journald` set, `paths` []); an IntakeType
   * listens (`intake` set, `paths` []).
   */
  type: 'file' | 'journald' | IntakeType
  /** Where and how a network source listens; undefined for a file or journald source. */
  intake?: IntakeConfig | undefined
  /** Absolute glob patterns; [] for a journald source. */
  paths: string[]
  /** The journal's filters for a journald source; undefined for a file source. */
  journald: JournaldSourceConfig | undefined
  /** Files not to tail: globs without '/' match the file name, the others (absolute) the path. [] when none. */
  exclude: string[]
  /** Which symlinks are read (agent/tail/link-decision.ts); a list holds absolute directories. */
  followSymlinks: FollowSymlinks
  format: LineFormat
  /** Lines that continue an event join it (agent/events/); undefined: every line is an event. */
  multiline: MultilineConfig | undefined
  startAt: 'end' | 'beginning'
  maxLineBytes: number
  /** Reads on the agent's thread (fs.readSync), not the thread pool. */
  syncReads: boolean
}

/** A source that listens (agent/intake/). */
export type IntakeSourceConfig = SourceConfig & { type: IntakeType; intake: IntakeConfig }

type Rendering<T extends ChannelDefinition['type']> = Extract<ChannelDefinition, { type: T }>

interface ChannelCommon {
  name: string
  maxPerHour: number | undefined
  /** Requests in flight at once on the channel (`concurrency`); undefined: the dispatcher's default (4). */
  concurrency?: number | undefined
  /** Names of the people it reaches; their addresses are already among the recipients. [] when none. */
  people: string[]
  /** Whose turn it is, resolved when a notice is sent (its recipients are then []); undefined: its own recipients. */
  oncall: OncallRef | undefined
  /** When it is active; undefined: always. */
  activeHours: ActiveHours[] | undefined
}

/** Someone channels and escalation steps name; at least one address is set. */
export interface PersonConfig {
  name: string
  /** As written. */
  phone: string | undefined
  email: string | undefined
  /** As the API takes it (`+919800000001`); a chat channel uses `phone` when this is undefined. */
  chat: string | undefined
}

export interface AcknowledgeConfig {
  /** The number missed calls to acknowledge; undefined: a real API and none configured (any number counts). */
  missedCallNumber: string | undefined
  pollIntervalMs: number
  /** A missed call acknowledges all of the caller's firing, unacknowledged incidents, not just the latest. */
  ackAll: boolean
  /** The final text pages carry (`{{number}}` filled in); undefined: no hint. */
  hint: string | undefined
  /** Appended to the audio of voice pages. */
  voiceAudio: string | undefined
}

export interface ConsoleConfig {
  enabled: boolean
  /** undefined: loopback only (the agent makes one per start). */
  token: Secret | undefined
}

/** TLS to Redis (`tls`, or a rediss:// URL): the files' contents, read at load. */
export interface ClusterTlsConfig {
  /** PEM of the CA(s) the server's certificate must chain to; undefined: Node's default CAs. */
  ca: string | undefined
  /** Client certificate (PEM), with `key`. */
  cert: string | undefined
  key: Secret | undefined
  rejectUnauthorized: boolean
}

/** `cluster`: the Redis the fleet shares its incident state on (agent/cluster/). */
export interface ClusterConfig {
  /** [A-Za-z0-9._-]{1,64}; default: the host name. */
  agentId: string
  redis: {
    /** redis:// or rediss://, without credentials. */
    url: string
    keyPrefix: string
    username: string | undefined
    password: Secret | undefined
    /** undefined: plain TCP. */
    tls: ClusterTlsConfig | undefined
  }
  leaseMs: number
  heartbeatMs: number
  flushMs: number
  commandTimeoutMs: number
}

/** `digest`: the kinds and incidents of each period, sent on a wall-clock schedule (agent/daemon/digest.ts). */
export interface DigestConfig {
  /** A whole number of days, or hours that divide a day. */
  everyMs: number
  /** Local time of day (with everyMs under a day: the first slot of the day). */
  at: { hour: number; minute: number }
  timeZone: string
  /** Channel names (mail, sms or chat): one message each per digest. */
  notify: string[]
}

export type ChannelConfig =
  | (Rendering<'sms'> &
      ChannelCommon & {
        numbers: string[]
        senderId: string | undefined
        route: string | undefined
        templateId: string | undefined
      })
  | (Rendering<'chat'> & ChannelCommon & { numbers: string[]; templateId: number; attachment: string | undefined })
  | (Rendering<'mail'> & ChannelCommon & { from: string; to: string[]; format: 'html' | 'text' })
  | (Rendering<'voice'> & ChannelCommon)

export type ChannelType = ChannelConfig['type']

/** `kinds`: the kind table's bound and a first start's learning (rules on kinds, alerts/kinds). */
export interface KindsConfig {
  /** Kinds kept per source. */
  max: number
  /** How long a first start records kinds without paging them as new. */
  learnMs: number
}

export interface AgentConfig {
  /** The file it was loaded from (for messages), as given. */
  file: string
  messaging: MessagingConfig
  stateDir: string
  sources: SourceConfig[]
  /** [] when there is no `people` section. */
  people: PersonConfig[]
  /** [] when there is no `schedules` section. */
  schedules: ScheduleConfig[]
  channels: ChannelConfig[]
  rules: RuleConfig[]
  silences: SilenceConfig[]
  /** [] when there is no `inhibit` section. */
  inhibit: InhibitRule[]
  /** Paths of log fields censored before a line is stored or rendered, as segments (`*`: every key). */
  redact: RedactPath[]
  metrics: { listen: ListenAddress } | undefined
  acknowledge: AcknowledgeConfig
  console: ConsoleConfig
  /** A fleet's shared state on Redis; undefined (absent): this agent keeps its state to itself. */
  cluster?: ClusterConfig
  /** The digest's schedule and channels; undefined (absent): no digest. */
  digest?: DigestConfig
  /** The kind table's bound and learning; the normalizer always fills it in (defaults). */
  kinds?: KindsConfig
  /** Every secret value, for scrubbing rendered messages and logs. */
  secrets: Secret[]
}
