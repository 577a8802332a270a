// The intake contract: what a network source (agent/intake/<type>/) hands the alert path, and what
// the framework (listeners, tokens, limits: agent/intake/*.ts) gives it. A leaf: types only, so each
// intake type and the daemon import it without pulling in the framework or closing a cycle.
//
// The promise behind it: a sender is told "accepted" (a 2xx, a TCP read) only once the events are in
// the alert path's journal (the outbox fsynced), so a SIGKILL right after loses nothing. A decoder
// decodes the whole payload before anything is accepted: a bad item refuses the request, and
// nothing of it is taken.
import type { IncomingHttpHeaders } from 'node:http'
import type { AlertLine } from '../../alerts'
import type { IntakeSourceConfig } from '../config/types'

/** One event an intake decoded: a line as a tailed file would give it, and what it says of its incident. */
export interface IntakeEvent {
  /** Its fields are the record rules match on; `source` is the intake source's name. */
  line: AlertLine
  /**
   * The sender's own incident key (Alertmanager's `fingerprint`), when it has one. The decoder also puts
   * it in `line.record`, so a rule's `group_by` groups on it; the sink logs and counts with it.
   */
  incidentKey?: string | undefined
  /**
   * The sender says the incident is over (`status: resolved`): the sink resolves the open incident the
   * line's rule and group make (engine.select(line).key), which sends the resolve notice; no page.
   */
  resolves?: boolean | undefined
  /**
   * With `resolves`: whether whoever was paged hears of it (the source's `send_resolved`, default true);
   * false: the resolve notice goes to the incident's record (the CRM) only.
   */
  notifyResolved?: boolean | undefined
}

/** Who an intake hands its events to: the alert path, behind the outbox's journal. */
export interface IntakeSink {
  /**
   * Every event through the alert path, then the outbox fsynced (dispatcher.syncAsync()): resolves only
   * once they are on disk. Rejects with an IntakeBusyError (retryAfterSeconds) when the outbox is past
   * its bound, before taking any of them; with another error when the journal cannot be written.
   */
  accept(events: readonly IntakeEvent[]): Promise<void>
  /** The outbox is past its bound: a stream intake pauses its sockets until this is false. */
  busy(): boolean
  /**
   * The lowest level any rule takes for `source` (pipeline.lowestLevel(source)): an event below it cannot
   * page, so an intake may drop it before it parses it, as a tailed file's byte pre-filter does. Lower
   * than the rules' levels when a regressed rule watches the source's deploy lines (usually info).
   */
  lowestLevel(source: string): number
  /** `count` events of `source` read and left out below every rule: still lines ratio rules divide by. */
  countPassed(source: string, count: number): void
}

/** What a request looks like to a decoder: never its token (the framework checked it and keeps it). */
export interface IntakeRequest {
  /** The path without its query, e.g. `/ingest/api` or `/v1/logs`. */
  path: string
  /** The media type, lower case, without parameters (`application/json`); '' when none was sent. */
  contentType: string
  /** The headers less Authorization. */
  headers: IncomingHttpHeaders
  /** The client's address, as rate limits and logs see it. */
  remoteAddress: string
  /**
   * The lowest level any rule takes for the source (IntakeSink.lowestLevel): a decoder may leave out the events
   * below it, which could not page, and say how many in `passed`; undefined: keep every event.
   */
  lowestLevel?: number | undefined
  /** Set by a decoder: events it took but left out as below every rule; counted as accepted. */
  passed?: number | undefined
}

/** A reply body a handler chooses (OTLP's ExportLogsServiceResponse, its Status on a refusal). */
export interface IntakeReply {
  contentType: string
  body: Buffer | string
}

/**
 * One HTTP intake source: the framework routes a POST on one of `paths` of its `listen` address here,
 * after the token or client certificate, the rate limit and the body limit (gzip already inflated).
 */
export interface HttpIntakeHandler {
  /** The source's name: metrics, logs and the events' `source`. */
  readonly source: string
  /** Exact paths it takes; two sources on one address must not share one (validate refuses it). */
  readonly paths: readonly string[]
  /** Media types it decodes (lower case); another gets 415 naming these. */
  readonly contentTypes: readonly string[]
  /**
   * The whole body to events, or an IntakeError (400 naming the field, e.g. `[3].msg: expected a
   * string`). Nothing is accepted before it returns, so a throw takes nothing.
   */
  decode(body: Buffer, request: IntakeRequest): IntakeEvent[] | Promise<IntakeEvent[]>
  /** The 2xx body once `accepted` events are journaled; undefined: 200 `{"accepted":N}` as JSON. */
  reply?(accepted: number, request: IntakeRequest): IntakeReply
  /** The body of a refusal (400, 413, 415, 429, 503); undefined: `{"error": message}` as JSON. */
  refusal?(status: number, message: string, request: IntakeRequest): IntakeReply
}

/** Makes the handler of one HTTP intake source (its type's keys are in `source.intake`). */
export type HttpIntakeFactory = (source: IntakeSourceConfig) => HttpIntakeHandler

/** What an intake that is not HTTP (syslog over UDP/TCP) is given: it listens itself. */
export interface StreamIntakeContext {
  source: IntakeSourceConfig
  sink: IntakeSink
  log: IntakeLog
  /** Counted into the source's metrics (intake-metrics.ts), as the HTTP intakes' are. */
  metrics: IntakeCounters
}

/** A running stream intake: the daemon closes it on stop and when a reload changes or removes its source. */
export interface RunningStreamIntake {
  /** Where it listens, for the start banner (`tcp://127.0.0.1:5514`, `udp://...`). */
  readonly urls: readonly string[]
  close(): Promise<void>
}

/** Starts a stream intake; rejects (an IntakeError of code LISTEN) when it cannot listen. */
export type StreamIntakeFactory = (context: StreamIntakeContext) => Promise<RunningStreamIntake>

/** Where an intake reports; fields never carry a token or a body. A call never throws. */
export interface IntakeLog {
  info(fields: Record<string, unknown>, message: string): void
  warn(fields: Record<string, unknown>, message: string): void
  error(fields: Record<string, unknown>, message: string): void
}

/** What /metrics shows of one intake source (`logx_intake_*{source}`). */
export interface IntakeCounters {
  /** A request (HTTP) or a connection's frame batch (stream) came in. */
  request(): void
  /** Events accepted: journaled. */
  accepted(events: number): void
  /** A request refused, by HTTP status (400, 401, 413, 415, 429, 503) or, for a stream, 400 / 503. */
  refused(status: number): void
}
