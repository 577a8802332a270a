// An in-memory ConsoleBackend for the console's tests and bench: incidents and silences in maps,
// every action recorded, the contract's rules (ack only a firing incident, unack only an
// acknowledged one, prefixes of at least 4 characters, config silences cannot be expired), and
// schedules as given (the moment each was asked for recorded).

import type {
  ActionResult,
  ConsoleBackend,
  IncidentDetail,
  ScheduleView,
  SilenceSummary,
} from '../../../../agent/daemon/console/types'

export interface FakeBackend extends ConsoleBackend {
  readonly actions: { id: string; action: string; by: string; via: string }[]
  readonly added: Parameters<ConsoleBackend['addSilence']>[0][]
  put(incident: IncidentDetail): void
  putSilence(silence: SilenceSummary): void
  /** What `schedules(at)` answers from now on. */
  putSchedules(schedules: ScheduleView[]): void
  /** The `at` of every `schedules(at)` call. */
  readonly schedulesAskedAt: number[]
  /** Makes every call throw (a backend bug), to see the console answer 500 and live on. */
  breakWith(error: Error | undefined): void
}

export function incident(key: string, overrides: Partial<IncidentDetail> = {}): IncidentDetail {
  return {
    id: key,
    shortId: key.slice(0, 8),
    rule: 'errors',
    title: `query failed (${key})`,
    state: 'firing',
    count: 3,
    firstSeen: 1_700_000_000_000,
    lastSeen: 1_700_000_060_000,
    step: 0,
    paged: ['asha'],
    ack: undefined,
    timeline: [{ at: 1_700_000_000_000, kind: 'firing', text: 'FIRING query failed', channel: 'oncall-sms' }],
    ...overrides,
  }
}

export function createFakeBackend(now: () => number = Date.now): FakeBackend {
  const incidents = new Map<string, IncidentDetail>()
  const silences = new Map<string, SilenceSummary>()
  const actions: FakeBackend['actions'] = []
  const added: FakeBackend['added'] = []
  const schedulesAskedAt: number[] = []
  let schedules: ScheduleView[] = []
  let broken: Error | undefined
  let nextSilence = 1

  const check = (): void => {
    if (broken !== undefined) throw broken
  }
  const find = (id: string): IncidentDetail | undefined | 'ambiguous' => {
    const exact = incidents.get(id)
    if (exact !== undefined) return exact
    if (id.length < 4) return undefined
    const matches = [...incidents.values()].filter((i) => i.id.startsWith(id))
    return matches.length > 1 ? 'ambiguous' : matches[0]
  }
  const summary = ({ timeline: _timeline, ...rest }: IncidentDetail) => rest

  return {
    actions,
    added,
    put: (i) => void incidents.set(i.id, i),
    putSilence: (s) => void silences.set(s.id, s),
    schedulesAskedAt,
    putSchedules: (views) => {
      schedules = views
    },
    breakWith: (error) => {
      broken = error
    },
    incidents({ state, limit }) {
      check()
      const matching = [...incidents.values()]
        .filter((i) => state === undefined || i.state === state)
        .sort((a, b) => b.lastSeen - a.lastSeen)
      return { items: matching.slice(0, limit ?? Infinity).map(summary), total: matching.length }
    },
    incident: (id) => (check(), find(id)),
    act(id, action, by, via): ActionResult {
      check()
      const found = find(id)
      if (found === undefined) return { ok: false, status: 404, error: `no open incident ${id}` }
      if (found === 'ambiguous') return { ok: false, status: 409, error: `${id} names several incidents` }
      const at = now()
      let next: IncidentDetail
      if (action === 'ack') {
        if (found.state !== 'firing')
          return {
            ok: false,
            status: 409,
            error: `cannot acknowledge: ${found.state === 'acknowledged' ? 'already-acknowledged' : found.state}`,
          }
        next = { ...found, state: 'acknowledged', ack: { by, via, at } }
      } else if (action === 'unack') {
        if (found.state !== 'acknowledged')
          return { ok: false, status: 409, error: 'cannot unacknowledge: not-acknowledged' }
        next = { ...found, state: 'firing', ack: undefined }
      } else {
        next = { ...found, state: 'resolved' }
      }
      const kind = { ack: 'acknowledged', unack: 'unacknowledged', resolve: 'resolved' }[action]
      next = { ...next, timeline: [...found.timeline, { at, kind, text: `${kind} by ${by}`, by }] }
      actions.push({ id: found.id, action, by, via })
      if (action === 'resolve') incidents.delete(found.id)
      else incidents.set(found.id, next)
      return { ok: true, incident: next }
    },
    silences: () => (check(), [...silences.values()].filter((s) => s.endsAt > now())),
    addSilence(input) {
      check()
      if (input.matchers['rule'] === 'refused') return { ok: false, error: 'matchers.rule: no rule named "refused"' }
      added.push(input)
      const silence: SilenceSummary = {
        id: `s${nextSilence++}`,
        matchers: input.matchers,
        startsAt: now(),
        endsAt: input.endsAt,
        comment: input.comment,
        createdBy: input.by,
        origin: 'runtime',
      }
      silences.set(silence.id, silence)
      return { ok: true, silence }
    },
    expireSilence(id) {
      check()
      const found = silences.get(id)
      if (found === undefined || found.endsAt <= now())
        return { ok: false, status: 404, error: `no active silence ${id}` }
      if (found.origin === 'config')
        return { ok: false, status: 409, error: `silence ${id} is in the config: remove it there` }
      const expired = { ...found, endsAt: now() }
      silences.set(id, expired)
      return { ok: true, silence: expired }
    },
    people: () => (check(), ['asha', 'ravi']),
    schedules(at) {
      check()
      schedulesAskedAt.push(at)
      return schedules
    },
  }
}

// Times on Kolkata's clock (UTC+05:30, no DST): 12:30Z is 18:00 there.
/** A schedule as the console shows it: an override now, then handoffs; one layer kept in another zone. */
export const OPS_SCHEDULE: ScheduleView = {
  name: 'ops',
  timeZone: 'Asia/Kolkata',
  layers: [
    {
      name: 'primary',
      timeZone: 'Asia/Kolkata',
      now: { user: 'ravi', until: Date.parse('2026-03-06T12:30:00Z'), override: true },
      next: [
        { at: Date.parse('2026-03-06T12:30:00Z'), user: 'meera', override: false },
        { at: Date.parse('2026-03-09T03:30:00Z'), user: 'asha', override: false },
      ],
    },
    // A layer kept in Berlin is still shown on the schedule's clock: 08:00Z is 13:30 in Kolkata.
    {
      name: 'secondary',
      timeZone: 'Europe/Berlin',
      now: null,
      next: [{ at: Date.parse('2026-03-09T08:00:00Z'), user: 'asha', override: false }],
    },
  ],
}
