// The alert path's vocabulary, for the files of this folder and for whoever uses the path (the
// daemon, the targets, what people do, a fleet). A leaf: types only, imported from lower floors, so
// importing it never pulls in the path itself and no import of it closes a cycle.
import type {
  AlertEngine,
  AlertEngineOptions,
  AlertLine,
  Delivery,
  FleetSeen,
  IncidentSnapshot,
  IncidentStatus,
  IncidentView,
} from '../../alerts'
import type { EngineParts } from '../config/normalize/engine-options'
import type { ChannelConfig, PersonConfig } from '../config/types'

/** Where the path reports what it does: the daemon's logger, or a target's bounded stderr reporter. */
export interface DeliveryLog {
  info(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
  error(fields: Record<string, unknown>, message: string): void
}

/** What the alert path runs on, whoever calls it (alert-setup.ts makes it of a config). */
export interface AlertSetup extends Omit<EngineParts, 'channels'> {
  /** The channels messages go out on. */
  channels: readonly ChannelConfig[]
  /**
   * Rules whose incidents are recorded on the CRM also get its notes (opened, counts, escalations,
   * resolved) through a recording channel. The daemon and logx-incident want them; a channel target
   * with `incident: true` records only the messages it sends (a logx-incident beside it writes the notes).
   */
  incidentNotes: { maxPerHour: number | undefined } | undefined
  /** Whom escalation steps may name instead of a channel's recipients (the YAML's `people:`). */
  people?: readonly PersonConfig[] | undefined
  /** What pages say about acknowledging them (the daemon's, which polls missed calls). */
  acknowledge?: AlertEngineOptions['acknowledge']
}

/** An incident's notice as its messages carry it through the outbox. */
export interface QueuedPage {
  key: string
  rule: string
  at: number
}

export interface DispatcherStats {
  /** By outbox item kind: sms, chat, mail, voice, incident (CRM records). */
  sent: Record<string, number>
  failed: Record<string, number>
  retried: number
  dead: number
  depth: number
  /** Of `depth`, the notifications waiting on disk only (the outbox's in-memory window is full). */
  spilled?: number
}

export interface Dispatcher {
  /** Journals what the deliveries need sent; `incidentRules` names the rules whose incidents are recorded. */
  dispatch(deliveries: readonly Delivery[], incidentRules: ReadonlySet<string>): void
  /** The channels, and the people escalation steps may name instead of a channel's recipients. */
  setChannels(channels: readonly ChannelConfig[], people?: readonly PersonConfig[]): void
  /** The rules' repeat and ack_timeout intervals: in a fleet, how often a repeat may go out fleet-wide. */
  setRules(rules: readonly { name: string; repeatIntervalMs: number; ackTimeoutMs?: number | undefined }[]): void
  /** Forgets the lead of an incident that ended without a resolve notice (its next firing opens a new one). */
  closeLead(key: string): void
  stats(): DispatcherStats
  /**
   * Pages whose messages (or, for a target that only records incidents, whose CRM records) wait in
   * the outbox (in memory): at start, those of the previous run. The incident state is written just
   * after the outbox: a crash in between leaves such a page unrecorded there, and the path records it
   * from here before reading again.
   */
  queuedPages(): QueuedPage[]
  drain(timeoutMs: number): Promise<{ drained: boolean; pending: number }>
  /** fsyncs the outbox: call before a checkpoint commits the lines behind what was dispatched. */
  sync(): void
  /**
   * sync() off the event loop: resolves once what was dispatched before the call is on disk; rejects
   * when it cannot be.
   */
  syncAsync(): Promise<void>
  close(): Promise<void>
}

export interface PipelineStats {
  matches: number
  suppressedRepages: number
  openIncidents: number
  firingIncidents: number
  /** Incidents dropped because the engine or the state file held its maximum (least recently seen first). */
  evictedIncidents: number
  /** Lines the engine threw on (a bug): skipped and logged, so one line cannot stop a source. */
  failedLines: number
  /** Pages muted by an inhibit rule, across reloads. */
  inhibited: number
  /** Group keys absence rules watch, and the absence incidents open. */
  absenceKeys: number
  absenceIncidents: number
}

export interface AlertPipeline {
  /**
   * The byte pre-filter's threshold: the lowest level any rule takes; for `source`, lower when a
   * regressed rule watches its deploy lines (agent/prefilter/deploy-threshold.ts).
   */
  lowestLevel(source?: string): number
  ingest(line: AlertLine, now: number): void
  /**
   * `n` lines of `source` were read, every one of them, before any filter: what `ratio` rules divide
   * by. The readers call it once per batch; without a kind rule it does nothing.
   */
  countLines(source: string | undefined, n: number, now: number): void
  tick(now: number): void
  /** Shutdown: incidents still in group_wait fire now rather than never. */
  flush(now: number): void
  /** Reload: new rules, channels and silences; what already paged stays paged. */
  replace(setup: AlertSetup, now: number): void
  /**
   * A change people make to incidents (acknowledge, resolve, silence), run on the engine; what it
   * decides to send goes the way of every notice (outbox, incident state, timeline).
   */
  change<T>(now: number, act: (engine: AlertEngine) => { deliveries: Delivery[]; result: T }): T
  /** What the other agents of a fleet saw of incidents (agent/cluster): counted here too; what it fires goes out. */
  seenElsewhere(seen: readonly (FleetSeen & { key: string })[], now: number): void
  /** The open incidents (pending, firing, acknowledged), the most recently seen first: at most `limit`, of `status`. */
  incidents(limit?: number, status?: IncidentStatus): IncidentSnapshot[]
  /** incidents() as live read-only views (no snapshot): for the console's lists. */
  incidentViews(limit?: number, status?: IncidentStatus): IncidentView[]
  countIncidents(status?: IncidentStatus): number
  incident(key: string): IncidentSnapshot | undefined
  stats(): PipelineStats
}
