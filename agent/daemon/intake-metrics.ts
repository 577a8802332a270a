// /metrics of the network sources (agent/intake/): per source, the requests, the events accepted
// (journaled) and the requests refused by HTTP status. None when the config has no intake source.
import type { SourceReader } from '../events/types'
import type { Metric } from './metrics-server'

export function intakeMetrics(readers: readonly SourceReader[]): Metric[] {
  const intakes = readers.flatMap((r) => (r.intake === undefined ? [] : [{ source: r.name, ...r.intake.counts() }]))
  if (intakes.length === 0) return []
  return [
    {
      name: 'logx_agent_intake_requests_total',
      help: 'Requests (or syslog frames) a network source received, by source',
      type: 'counter',
      samples: intakes.map(({ source, requests }) => ({ labels: { source }, value: requests })),
    },
    {
      name: 'logx_agent_intake_events_total',
      help: 'Events a network source accepted (journaled on the alert path), by source',
      type: 'counter',
      samples: intakes.map(({ source, accepted }) => ({ labels: { source }, value: accepted })),
    },
    {
      name: 'logx_agent_intake_refused_total',
      help: 'Requests a network source refused, by source and HTTP status (401, 413, 429, 503...)',
      type: 'counter',
      samples: intakes.flatMap(({ source, refused }) =>
        Object.entries(refused).map(([status, value]) => ({ labels: { source, status }, value })),
      ),
    },
  ]
}
