// `test-rule`'s engine: the same pre-filter, rules, channels and request builders as the running
// agent, fed with batches of lines from files instead of the tailer, on a clock taken from the
// lines' own `time` field (so group_wait, repeat and resolve act as they would have), with nothing
// sent: every delivery is written down as the exact request each channel would get, and whom it
// would reach (people by name, after on-call resolution at the notice's time; other recipients by
// their address).
import {
  censorLine,
  createAlertEngine,
  fingerprint,
  lowestLevel,
  selectRule,
  type AlertEngine,
  type Delivery,
} from '../../../alerts'
import type { AgentConfig, LineFormat, MultilineConfig, PersonConfig } from '../../config/types'
import type { LineBatch } from '../../tail'
import { assembleBatch } from '../../events/batch-events'
import { assembleContainerBatch } from '../../events/container-events'
import { createContainerDecoder } from '../../events/container-lines'
import { eventAlertLine } from '../../events/event-line'
import { createEventStream, endStream, type PendingEvent } from '../../events/event-stream'
import { compileLineRule } from '../../events/line-rule'
import type { LineRule } from '../../events/line-step'
import { isContainerFormat } from '../../events/source-events'
import { toAlertLine, type ParsedLine } from '../../events/alert-line'
import { engineOptionsOfSetup, incidentRulesOf, setupOfConfig } from '../../delivery/alert-setup'
import { createCandidateFilter } from '../../prefilter/candidate-filter'
import { buildChannelRequests } from '../../delivery/channels'
import { addressed } from '../../delivery/channels/recipients'
import { incidentActivities } from '../../delivery/record/incident-activities'
import { createPhoneBook } from '../../acknowledge/phone-book'
import { lineIndexOf } from '../../prefilter/stream-lines'

export interface DryRunMatch {
  file: string
  line: number
  rule: string
  level: number | undefined
  msg: string
  /** A multi-line event's lines after its first (a stack trace), as the engine keeps them. */
  more?: string[]
}

export interface DryRunIncident {
  key: string
  rule: string
  title: string
  lines: number
  firstSeen: string
  lastSeen: string
  /** Messages (one per channel) its notices produced. */
  deliveries: number
}

export interface DryRunMessage {
  at: string
  kind: string
  incident: string
  channel: string
  type: string
  /** What the messaging API (or, for `incident`, the CRM webhooks) would receive. */
  requests: unknown[]
  /** Whom it reaches: a person's name, else the number or address as written; [] for the CRM record. */
  reaches: string[]
  /** Who a schedule resolved to, when a channel or step addresses `oncall:`. */
  oncall?: OncallPick[]
  /** An `inhibited` page: the incident whose firing muted it. */
  mutedBy?: { key: string; rule: string; title: string }
}

export interface OncallPick {
  schedule: string
  layer: string
  user: string
}

export interface DryRunReport {
  lines: number
  matched: number
  parseErrors: number
  /** The first MAX_LISTED matches. */
  matches: DryRunMatch[]
  incidents: DryRunIncident[]
  messages: DryRunMessage[]
}

/** How a file is read: as its source would be (undefined name: in no source). */
export interface DryRunSource {
  name: string | undefined
  format: LineFormat
  multiline: MultilineConfig | undefined
  maxLineBytes: number
}

/** One file, read from its first line. */
export interface DryRunFile {
  batch(batch: LineBatch): void
  /** The file's end: the event still open ends here. */
  end(): void
}

export interface DryRun {
  file(file: string, source: DryRunSource): DryRunFile
  finish(): DryRunReport
}

export const MAX_LISTED = 1000
const TICK_MS = 1000

function lineTime(record: Record<string, unknown>): number | undefined {
  const t = record.time ?? record.timestamp ?? record['@timestamp']
  if (typeof t === 'number' && Number.isFinite(t)) return t < 1e11 ? t * 1000 : t
  if (typeof t === 'string') {
    const parsed = Date.parse(t)
    return Number.isNaN(parsed) ? undefined : parsed
  }
  return undefined
}

type Addressed = ReturnType<typeof addressed>

/** The names and addresses an addressed channel sends to, a person's address given as the person's name. */
function recipientsOf(
  { channel, delivery }: Addressed,
  people: readonly PersonConfig[],
  phoneBook: ReturnType<typeof createPhoneBook>,
): string[] {
  const byPhone = (number: string): string => phoneBook.personOf(number) ?? number
  let named: string[]
  switch (channel.type) {
    case 'sms':
    case 'chat':
      named = channel.numbers.map(byPhone)
      break
    case 'mail':
      named = channel.to.map((to) => people.find((p) => p.email?.toLowerCase() === to.toLowerCase())?.name ?? to)
      break
    case 'voice':
      named =
        delivery.message.type === 'voice'
          ? delivery.message.receivers.map((r) => phoneBook.personOf(r.number) ?? r.label)
          : []
      break
  }
  return [...new Set(named)]
}

interface MessageParts {
  incidentRules: ReadonlySet<string>
  channels: ReadonlyMap<string, AgentConfig['channels'][number]>
  directory: ReadonlyMap<string, PersonConfig>
  people: readonly PersonConfig[]
  phoneBook: ReturnType<typeof createPhoneBook>
}

/** What one delivery would send, as the report shows it; undefined for a note nobody would see. */
function toMessage(delivery: Delivery, parts: MessageParts): DryRunMessage | undefined {
  const { notice } = delivery
  let requests: unknown[]
  let reaches: string[] = []
  if (delivery.channelType === 'incident') {
    // A muted page is always shown (inhibition never mutes silently); other notes only for incident rules.
    if (!parts.incidentRules.has(notice.incident.rule) && notice.kind !== 'inhibited') return undefined
    requests = incidentActivities(delivery).map((activity) => ({ lead: notice.incident.title, activity }))
  } else {
    const channel = parts.channels.get(notice.channel)
    if (channel === undefined) return undefined
    // As the dispatcher sends it: the step's people, or the person on call the engine resolved
    // at the notice's time, instead of the channel's own recipients.
    const target = addressed(channel, delivery, parts.directory)
    requests = buildChannelRequests(target.channel, target.delivery).map((out) => out.request)
    reaches = recipientsOf(target, parts.people, parts.phoneBook)
  }
  const message: DryRunMessage = {
    at: new Date(notice.at).toISOString(),
    kind: notice.kind,
    incident: notice.incident.key,
    channel: delivery.channelType === 'incident' ? 'incident (CRM lead and activity)' : notice.channel,
    type: delivery.channelType,
    requests,
    reaches,
  }
  if (notice.oncall !== undefined && notice.oncall.length > 0) message.oncall = notice.oncall.map((o) => ({ ...o }))
  if (notice.inhibitedBy !== undefined) message.mutedBy = { ...notice.inhibitedBy }
  return message
}

/** What a file's reader needs of the dry run. */
interface ReaderParts {
  file: string
  source: DryRunSource
  filter: ReturnType<typeof createCandidateFilter>
  report: DryRunReport
  line(parsed: ParsedLine, first: string, file: string, lineNo: number): void
}

/** A file of single lines: the running agent's pre-filter, so test-rule selects exactly what `run` would. */
function plainReader({ file, source, filter, report, line }: ReaderParts): DryRunFile {
  let lineNo = 1
  return {
    batch(batch) {
      report.lines += batch.lineCount
      const { candidates, notJson } = filter(batch)
      if (source.format === 'json') report.parseErrors += notJson
      for (const candidate of candidates) {
        const text = candidate.data.toString('utf8')
        line(toAlertLine(text, source.format, source.name), text, file, lineNo + lineIndexOf(batch, candidate.offset))
      }
      lineNo += batch.lineCount
    },
    end() {},
  }
}

/** Events as the agent reads them (agent/events/): numbered by their first line. */
function eventReader({ file, source, filter, report, line }: ReaderParts): DryRunFile {
  let lineNo = 1
  const container = isContainerFormat(source.format)
  const stream = createEventStream()
  if (container) stream.decoder = createContainerDecoder(source.format as 'docker' | 'cri', file, source.maxLineBytes)
  const rule = source.multiline === undefined ? undefined : compileLineRule(source.multiline)
  const maxLines = source.multiline?.maxLines ?? Number.POSITIVE_INFINITY
  const opened = new WeakMap<PendingEvent, number>()
  let batchLineNo = 1
  const emit = (event: PendingEvent): void =>
    line(
      eventAlertLine(event, source.format, source.name),
      event.first,
      file,
      opened.get(event) ?? batchLineNo + event.index,
    )
  return {
    batch(batch) {
      report.lines += batch.lineCount
      batchLineNo = lineNo
      if (container) {
        assembleContainerBatch(stream, batch, rule, maxLines, emit)
      } else {
        const { candidates, notJson } = filter(batch)
        if (source.format === 'json') report.parseErrors += notJson
        assembleBatch(stream, batch, candidates, rule as LineRule, maxLines, emit)
      }
      if (stream.open !== undefined && !opened.has(stream.open)) opened.set(stream.open, lineNo + stream.open.index)
      lineNo += batch.lineCount
    },
    end() {
      batchLineNo = lineNo
      for (const event of endStream(stream)) emit(event)
    },
  }
}

/** The config is valid already; an unknown `ruleName` is the caller's to reject. */
export function createDryRun(config: AgentConfig, ruleName: string | undefined, start: number): DryRun {
  const rules = ruleName === undefined ? config.rules : config.rules.filter((r) => r.name === ruleName)
  const setup = setupOfConfig({ ...config, rules }, [])
  const options = engineOptionsOfSetup(setup, start)
  const engine: AlertEngine = createAlertEngine(options)
  // What is printed of a line is what the engine keeps of it: no secret, no redacted value.
  const redact = options.redact ?? []
  const secrets = options.secrets ?? []
  const filter = createCandidateFilter(lowestLevel(engine.rules))
  const channels = new Map(config.channels.map((c) => [c.name, c]))
  const directory = new Map(config.people.map((p) => [p.name, p]))
  const phoneBook = createPhoneBook(config.people)
  const incidentRules = incidentRulesOf(setup)
  const incidents = new Map<string, DryRunIncident>()
  const report: DryRunReport = { lines: 0, matched: 0, parseErrors: 0, matches: [], incidents: [], messages: [] }
  // The clock starts at the first line that carries a time; until then, at `start`.
  let clock = start
  let lastTick = start
  let timed = false

  const parts: MessageParts = { incidentRules, channels, directory, people: config.people, phoneBook }
  function record(deliveries: readonly Delivery[]): void {
    for (const delivery of deliveries) {
      const message = toMessage(delivery, parts)
      if (message === undefined) continue
      const known = incidents.get(delivery.notice.incident.key)
      if (known !== undefined) known.deliveries++
      report.messages.push(message)
    }
  }

  function advance(to: number): void {
    if (!timed) {
      timed = true
      clock = to
      lastTick = to
      return
    }
    if (to <= clock) return
    clock = to
    if (clock - lastTick >= TICK_MS) {
      lastTick = clock
      record(engine.tick(clock))
    }
  }

  function line(parsed: ParsedLine, first: string, file: string, lineNo: number): void {
    if (parsed.parseError && first.charCodeAt(0) === 0x7b) report.parseErrors++
    const line = parsed.line
    const at = lineTime(line.record)
    if (at !== undefined) advance(at)
    const rule = selectRule(engine.rules, line)
    if (rule === undefined) return
    report.matched++
    const clean = censorLine(line, redact, secrets)
    if (report.matches.length < MAX_LISTED) {
      const match: DryRunMatch = {
        file,
        line: lineNo,
        rule: rule.name,
        level: line.level,
        msg: clean.msg.slice(0, 200),
      }
      if (!clean.json && clean.raw.includes('\n')) match.more = clean.raw.split('\n').slice(1)
      report.matches.push(match)
    }
    const key = fingerprint(rule, clean)
    const seen = new Date(clock).toISOString()
    let incident = incidents.get(key)
    if (incident === undefined) {
      const title = rule.title.render({ vars: { msg: clean.msg, rule: rule.name }, record: clean.record })
      incident = { key, rule: rule.name, title, lines: 0, firstSeen: seen, lastSeen: seen, deliveries: 0 }
      incidents.set(key, incident)
    }
    incident.lines++
    incident.lastSeen = seen
    record(engine.ingest(line, clock))
  }

  return {
    file(file, source) {
      const reader = { file, source, filter, report, line }
      return source.multiline === undefined && !isContainerFormat(source.format)
        ? plainReader(reader)
        : eventReader(reader)
    },
    finish() {
      record(engine.flush(clock))
      report.incidents = [...incidents.values()]
      return report
    },
  }
}
