// What the alert path keeps in the outbox, rule by rule (the numbers of agent/delivery/outbox-items.ts).
import { describe, expect, it } from 'vitest'
import {
  AHEAD_PER_SLOT,
  DEFAULT_CHANNEL_CONCURRENCY,
  INCIDENT_CHANNEL,
  incidentOf,
  isPage,
  laneOf,
  limitOf,
  noticesToClaim,
  queuedPagesOf,
  type Queued,
  type QueuedRecord,
} from '../../../agent/delivery/outbox-items'
import type { FleetNotice } from '../../../agent/delivery/fleet/types'
import type { OutboxItem } from '../../../agent/outbox'

const record = (key: string, extra: Partial<QueuedRecord> = {}): QueuedRecord => ({
  key,
  title: 'db down',
  rule: 'db',
  kind: 'firing',
  count: 1,
  firstSeen: 10,
  at: 20,
  service: undefined,
  host: undefined,
  activity: { type: 'NOTE', title: 'opened', notes: '' },
  ...extra,
})

const item = (kind: string, payload: Queued | QueuedRecord): OutboxItem => ({
  id: `${kind}-${Math.random()}`,
  kind,
  payload,
  createdAt: 0,
  attempts: 0,
  nextAttemptAt: 0,
})

const notice = (incident: string, channel: string): FleetNotice => ({
  incident,
  kind: 'firing',
  step: '',
  channel,
  part: 0,
  firedAt: 1,
})

describe('outbox items of the alert path', () => {
  it('1. a CRM record goes out on the recording lane, a message on its channel (else its kind)', () => {
    expect(laneOf('incident', record('k'))).toBe(INCIDENT_CHANNEL)
    expect(laneOf('sms', { request: {}, channel: 'oncall-sms' })).toBe('oncall-sms')
    expect(laneOf('sms', { request: {} })).toBe('sms')
  })

  it("2. a lane's limit is its channel's concurrency, else the default (the CRM's too)", () => {
    const channels = new Map([
      ['oncall-sms', { concurrency: 2 }],
      ['team-chat', {}],
    ])
    expect(limitOf('oncall-sms', channels)).toBe(2)
    expect(limitOf('team-chat', channels)).toBe(DEFAULT_CHANNEL_CONCURRENCY)
    expect(limitOf(INCIDENT_CHANNEL, channels)).toBe(DEFAULT_CHANNEL_CONCURRENCY)
  })

  it('3. an item belongs to its incident: a record by its key, a message by its key, page or record', () => {
    expect(incidentOf({ kind: 'incident', payload: record('a') })).toBe('a')
    expect(incidentOf({ kind: 'sms', payload: { request: {}, key: 'b' } })).toBe('b')
    expect(incidentOf({ kind: 'sms', payload: { request: {}, page: { key: 'c', rule: 'db', at: 1 } } })).toBe('c')
    expect(incidentOf({ kind: 'sms', payload: { request: {}, incident: record('d') } })).toBe('d')
    expect(incidentOf({ kind: 'sms', payload: { request: {} } })).toBeUndefined()
  })

  it('4. a page is a firing, repeat, escalated or unacknowledged notice', () => {
    expect(['firing', 'repeat', 'escalated', 'unacknowledged'].every((k) => isPage(k as never))).toBe(true)
    expect(isPage('resolved')).toBe(false)
    expect(isPage('acknowledged')).toBe(false)
  })

  it("5. the pages waiting: a message's page, and a record of a page notice but not a sent message's record", () => {
    const page = { key: 'a', rule: 'db', at: 5 }
    const items = [
      item('sms', { request: {}, page }),
      item('sms', { request: {} }),
      item('incident', record('b', { kind: 'repeat', rule: 'api', at: 7 })),
      item('incident', record('c', { messageKey: 'sms-1' })),
      item('incident', record('d', { kind: 'resolved' })),
    ]
    expect(queuedPagesOf(items)).toEqual([page, { key: 'b', rule: 'api', at: 7 }])
  })

  it('6. a fleet claims ahead only while nothing is spilled and the lane is short of its backlog bound', () => {
    const entries = [
      { kind: 'sms', payload: { request: {}, channel: 'busy', fleet: notice('a', 'busy') } },
      { kind: 'sms', payload: { request: {}, channel: 'calm', fleet: notice('b', 'calm') } },
      { kind: 'sms', payload: { request: {}, channel: 'calm' } },
    ]
    const lanes = {
      busy: { inFlight: 1, pending: AHEAD_PER_SLOT * 2, pausedUntil: 0 },
      calm: { inFlight: 0, pending: AHEAD_PER_SLOT * 2 - 1, pausedUntil: 0 },
    }
    expect(noticesToClaim(entries, { spilled: 0, lanes }, () => 2)).toEqual([notice('b', 'calm')])
    expect(noticesToClaim(entries, { spilled: 1, lanes }, () => 2)).toEqual([])
  })
})
