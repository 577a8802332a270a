// The console's data shapes (issue #14, contract section 4): what its HTTP API answers and the
// backend it reads and acts through. The HTTP layer knows only these; the daemon implements
// ConsoleBackend from the alert engine, the tests from an in-memory fake.

export interface IncidentSummary {
  /** The full incident key. */
  id: string
  /** The first 8 characters of the key. */
  shortId: string
  rule: string
  title: string
  state: 'pending' | 'firing' | 'acknowledged' | 'resolved'
  count: number
  firstSeen: number
  lastSeen: number
  step: number
  /** Names of the people paged. */
  paged: string[]
  ack: { by: string; via: string; at: number } | undefined
}

export interface TimelineEntry {
  at: number
  /** firing|repeat|escalated|resolved|acknowledged|unacknowledged|sent|failed|missed_call|... */
  kind: string
  text: string
  by?: string | undefined
  channel?: string | undefined
}

export interface IncidentDetail extends IncidentSummary {
  timeline: TimelineEntry[]
}

export interface SilenceSummary {
  id: string
  matchers: Record<string, string>
  startsAt: number
  endsAt: number
  comment: string | undefined
  createdBy: string | undefined
  origin: 'config' | 'runtime'
}

export type ActionResult = { ok: true; incident: IncidentDetail } | { ok: false; status: 404 | 409; error: string }

export interface ConsoleBackend {
  /** Open incidents, the most recently seen first: at most `limit`, in `state` when given; `total` counts all that match. */
  incidents(query: { state?: IncidentSummary['state'] | undefined; limit?: number | undefined }): { items: IncidentSummary[]; total: number }
  /** by key or unique prefix; 'ambiguous' when the prefix names several */
  incident(id: string): IncidentDetail | undefined | 'ambiguous'
  act(id: string, action: 'ack' | 'unack' | 'resolve', by: string, via: 'console' | 'cli'): ActionResult
  silences(): SilenceSummary[]
  addSilence(input: {
    matchers: Record<string, string>
    endsAt: number
    comment: string | undefined
    by: string | undefined
  }): { ok: true; silence: SilenceSummary } | { ok: false; error: string }
  expireSilence(id: string): { ok: true; silence: SilenceSummary } | { ok: false; status: 404 | 409; error: string }
  people(): string[]
}
