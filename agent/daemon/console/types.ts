// The console's data shapes (issue #14, contract section 4): what its HTTP API answers and the
// backend it reads and acts through. The HTTP layer knows only these; the daemon implements
// ConsoleBackend from the alert engine, the tests from an in-memory fake.
import type { KindsReader } from './kinds-types'
import type { TestPageBackend } from './test-page-types'

export type { TestPageBackend, TestPageChannelView, TestPageView } from './test-page-types'

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
  /**
   * In a fleet: the agents that saw its lines, each with its count and last time (the count and the
   * times above are the fleet's).
   */
  hosts?: { agent: string; count: number; last: number }[]
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

/** Who holds one layer of a schedule at a moment, and who comes next (issue #15). */
export interface LayerView {
  name: string
  /** The zone its handoffs are kept in (the schedule's unless the layer sets its own). */
  timeZone: string
  /** null: nobody (the rotation has not started yet). `until` is null when nothing ever changes. */
  now: { user: string; until: number | null; override: boolean } | null
  /** The next changes of who holds it, soonest first (a handoff, an override starting or ending). */
  next: { at: number; user: string; override: boolean }[]
}

export interface ScheduleView {
  name: string
  /** The schedule's zone: the one its times are shown in. */
  timeZone: string
  layers: LayerView[]
}

export type ActionResult = { ok: true; incident: IncidentDetail } | { ok: false; status: 404 | 409; error: string }

export interface ConsoleBackend {
  /** Brings what the incident routes show up to date first (a fleet's incidents, read from Redis); optional. */
  refresh?(): Promise<void>
  /**
   * Open incidents, the most recently seen first: at most `limit`, in `state` when given; `total`
   * counts all that match. `items` may be made as it is read (the answer is written a slice at a
   * time, so 10,000 summaries never live at once).
   */
  incidents(query: { state?: IncidentSummary['state'] | undefined; limit?: number | undefined }): {
    items: Iterable<IncidentSummary>
    total: number
  }
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
  /** Every schedule of the config: who is on call at `at` in each layer, and the next handoffs. */
  schedules(at: number): ScheduleView[]
  /** Test pages (issue #33); absent: the routes answer 404. */
  testPages?: TestPageBackend | undefined
  /** The kind table (issue #29); absent: GET /api/kinds answers 404. */
  kinds?: KindsReader | undefined
}
