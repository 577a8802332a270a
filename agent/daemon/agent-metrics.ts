// The agent's metrics, gathered at scrape time from the readers, the pipeline and the dispatcher.
import type { AlertPipeline, Dispatcher, DispatcherStats, PipelineStats } from '../delivery/types'
import type { IncidentActions } from '../acknowledge/incident-actions'
import type { MissedCallAcks } from './missed-call-acks'
import type { Metric } from './metrics-server'
import type { SourceReader } from '../events/types'
import { intakeMetrics } from './intake-metrics'
import { corruptStateCounts, type CorruptStateCount } from '../storage/corrupt-state'

export interface AgentCounters {
  reloads: number
  reloadFailures: number
}

function perSource(readers: readonly SourceReader[], value: (r: SourceReader) => number): Metric['samples'] {
  return readers.map((r) => ({ labels: { source: r.name }, value: value(r) }))
}

function byKind(counts: Record<string, number>): Metric['samples'] {
  const kinds = Object.keys(counts)
  if (kinds.length === 0) return [{ value: 0 }]
  return kinds.sort().map((kind) => ({ labels: { kind }, value: counts[kind] ?? 0 }))
}

/** What people did to incidents, and the missed calls read. */
function acknowledgementMetrics(actions: IncidentActions, acks: MissedCallAcks): Metric[] {
  const { manual, missedCalls } = actions.stats()
  const poller = acks.stats()
  const byAction = Object.entries(manual)
    .sort()
    .map(([key, value]) => {
      const [action = '', via = ''] = key.split(':')
      return { labels: { action, via }, value }
    })
  return [
    {
      name: 'logx_agent_incident_actions_total',
      help: 'Acknowledgements, un-acknowledgements and resolves made by hand, by action and how',
      type: 'counter',
      samples: byAction.length === 0 ? [{ value: 0 }] : byAction,
    },
    {
      name: 'logx_agent_missed_calls_total',
      help:
        'Missed calls read, by what they did: acknowledged, unknown_caller (no person has the number), ' +
        'nothing_open, repeated (already used)',
      type: 'counter',
      samples: [
        { labels: { outcome: 'acknowledged' }, value: missedCalls.acknowledged },
        { labels: { outcome: 'unknown_caller' }, value: missedCalls.unknownCaller },
        { labels: { outcome: 'nothing_open' }, value: missedCalls.nothingOpen },
        { labels: { outcome: 'repeated' }, value: missedCalls.repeated },
      ],
    },
    {
      name: 'logx_agent_missed_call_polls_total',
      help: 'Polls of the missed-call records',
      type: 'counter',
      samples: [{ value: poller?.polls ?? 0 }],
    },
    {
      name: 'logx_agent_missed_call_poll_errors_total',
      help: 'Polls of the missed-call records that failed',
      type: 'counter',
      samples: [{ value: poller?.errors ?? 0 }],
    },
    {
      name: 'logx_agent_missed_calls_ignored_total',
      help: 'Missed calls to another number than acknowledge.missed_call_number',
      type: 'counter',
      samples: [{ value: poller?.ignored ?? 0 }],
    },
  ]
}

/** What each source read: files, lines, bytes, how far behind, rotations, cut lines, parse errors. */
function readerMetrics(readers: readonly SourceReader[]): Metric[] {
  const behind = (r: SourceReader): number => r.files().reduce((sum, f) => sum + Math.max(0, f.size - f.readOffset), 0)
  return [
    {
      name: 'logx_agent_files_watched',
      help: 'Files being read or waiting',
      type: 'gauge',
      samples: perSource(readers, (r) => r.stats().files),
    },
    {
      name: 'logx_agent_lines_read_total',
      help: 'Lines read from log files',
      type: 'counter',
      samples: perSource(readers, (r) => r.stats().linesRead),
    },
    {
      name: 'logx_agent_bytes_read_total',
      help: 'Bytes read from log files',
      type: 'counter',
      samples: perSource(readers, (r) => r.stats().bytesRead),
    },
    {
      name: 'logx_agent_bytes_behind',
      help: 'Bytes written to log files and not read yet',
      type: 'gauge',
      samples: perSource(readers, behind),
    },
    {
      name: 'logx_agent_rotations_total',
      help: 'Rename-and-create rotations followed',
      type: 'counter',
      samples: perSource(readers, (r) => r.stats().rotations),
    },
    {
      name: 'logx_agent_truncations_total',
      help: 'Copy-and-truncate rotations (and other truncations) followed',
      type: 'counter',
      samples: perSource(readers, (r) => r.stats().truncations),
    },
    {
      name: 'logx_agent_truncated_lines_total',
      help: 'Lines cut to max_line_bytes',
      type: 'counter',
      samples: perSource(readers, (r) => r.stats().truncatedLines),
    },
    {
      name: 'logx_agent_symlinks_refused_total',
      help: 'Matching paths not read: they resolve outside what follow_symlinks allows (once per path and target)',
      type: 'counter',
      samples: perSource(readers, (r) => r.stats().refusedLinks),
    },
    {
      name: 'logx_agent_parse_errors_total',
      help: 'Lines expected to be JSON that were not',
      type: 'counter',
      samples: perSource(readers, (r) => r.parseErrors),
    },
  ]
}

/** What the alert path did with it: matches, notifications, the outbox, incidents. */
function alertMetrics(p: PipelineStats, d: DispatcherStats): Metric[] {
  return [
    {
      name: 'logx_agent_matches_total',
      help: 'Lines selected by a rule',
      type: 'counter',
      samples: [{ value: p.matches }],
    },
    {
      name: 'logx_agent_notifications_sent_total',
      help: 'Outbox items delivered, by kind (incident = CRM lead/activity)',
      type: 'counter',
      samples: byKind(d.sent),
    },
    {
      name: 'logx_agent_notifications_failed_total',
      help: 'Delivery attempts that failed, by kind',
      type: 'counter',
      samples: byKind(d.failed),
    },
    {
      name: 'logx_agent_notifications_retried_total',
      help: 'Deliveries scheduled for another attempt',
      type: 'counter',
      samples: [{ value: d.retried }],
    },
    {
      name: 'logx_agent_notifications_dead_total',
      help: 'Deliveries given up (dead letters)',
      type: 'counter',
      samples: [{ value: d.dead }],
    },
    {
      name: 'logx_agent_outbox_depth',
      help: 'Notifications waiting in the outbox',
      type: 'gauge',
      samples: [{ value: d.depth }],
    },
    {
      name: 'logx_agent_outbox_spilled',
      help: 'Of the outbox depth, notifications waiting on disk only (the in-memory window is full)',
      type: 'gauge',
      samples: [{ value: d.spilled ?? 0 }],
    },
    {
      name: 'logx_agent_incidents_open',
      help: 'Incidents the engine holds (pending, firing or acknowledged)',
      type: 'gauge',
      samples: [{ value: p.openIncidents }],
    },
    {
      name: 'logx_agent_incidents_firing',
      help: 'Incidents that have notified and not resolved',
      type: 'gauge',
      samples: [{ value: p.firingIncidents }],
    },
    {
      name: 'logx_agent_lines_failed_total',
      help: 'Selected lines the alert engine failed on (skipped and logged)',
      type: 'counter',
      samples: [{ value: p.failedLines }],
    },
    {
      name: 'logx_agent_incidents_evicted_total',
      help: 'Incidents dropped (least recently seen first) because 10000 were held already',
      type: 'counter',
      samples: [{ value: p.evictedIncidents }],
    },
    {
      name: 'logx_agent_notices_inhibited_total',
      help: 'Pages muted by an inhibit rule while their source incident fired (each recorded on the lead)',
      type: 'counter',
      samples: [{ value: p.inhibited }],
    },
    {
      name: 'logx_agent_absence_keys',
      help: 'Group keys absence rules watch',
      type: 'gauge',
      samples: [{ value: p.absenceKeys }],
    },
    {
      name: 'logx_agent_absence_incidents_open',
      help: "Absence incidents open (a watched key silent for its rule's `for`)",
      type: 'gauge',
      samples: [{ value: p.absenceIncidents }],
    },
    {
      name: 'logx_agent_repages_suppressed_total',
      help: 'Firing notices dropped because the incident had already paged before a restart or reload',
      type: 'counter',
      samples: [{ value: p.suppressedRepages }],
    },
  ]
}

/** State files found damaged at load (kept aside), and journals whose last record was torn, by file. */
function stateFileMetrics(): Metric[] {
  const counts = [...corruptStateCounts()].sort(([a], [b]) => a.localeCompare(b))
  const samples = (value: (count: CorruptStateCount) => number): Metric['samples'] =>
    counts.length === 0 ? [{ value: 0 }] : counts.map(([file, count]) => ({ labels: { file }, value: value(count) }))
  return [
    {
      name: 'logx_agent_state_files_corrupt_total',
      help: 'State files found damaged at load, by file: said, kept aside as <file>.corrupt-<time>, whole records kept',
      type: 'counter',
      samples: samples((count) => count.corrupt),
    },
    {
      name: 'logx_agent_state_records_torn_total',
      help: 'Journals whose last record was cut short by a stop mid-write (dropped; nothing kept aside), by file',
      type: 'counter',
      samples: samples((count) => count.torn),
    },
  ]
}

export function collectAgentMetrics(
  readers: readonly SourceReader[],
  pipeline: AlertPipeline,
  dispatcher: Dispatcher,
  counters: AgentCounters,
  now: number,
  people?: { actions: IncidentActions; acks: MissedCallAcks },
): Metric[] {
  // Nothing read and uncommitted means the checkpoint is current, however long ago it was written.
  const age = (r: SourceReader): number =>
    r.files().some((f) => f.committed < f.readOffset) ? (now - r.checkpointAt) / 1000 : 0
  const checkpointAge = readers.reduce((oldest, r) => Math.max(oldest, age(r)), 0)
  return [
    ...readerMetrics(readers),
    ...intakeMetrics(readers),
    ...alertMetrics(pipeline.stats(), dispatcher.stats()),
    {
      name: 'logx_agent_checkpoint_age_seconds',
      help: 'Seconds since the oldest source last wrote its checkpoint',
      type: 'gauge',
      samples: [{ value: checkpointAge }],
    },
    {
      name: 'logx_agent_config_reloads_total',
      help: 'Config reloads applied',
      type: 'counter',
      samples: [{ value: counters.reloads }],
    },
    {
      name: 'logx_agent_config_reload_failures_total',
      help: 'Config reloads rejected (invalid config)',
      type: 'counter',
      samples: [{ value: counters.reloadFailures }],
    },
    ...(people === undefined ? [] : acknowledgementMetrics(people.actions, people.acks)),
    ...stateFileMetrics(),
  ]
}
