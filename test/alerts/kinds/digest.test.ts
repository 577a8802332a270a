import { describe, expect, it } from 'vitest'
import {
  bucketsOf,
  countWithin,
  digestOf,
  isNewIn,
  isRegressedIn,
  type DigestIncidentInput,
} from '../../../alerts/kinds/digest'
import type { KindEntry } from '../../../alerts/kinds/types'
import { DIGEST_DAY, HOUR_MS as H, kindEntry } from '../../helpers/digest-fixtures'

const { from: FROM, to: TO } = DIGEST_DAY

const hour = (at: number): number => Math.floor(at / H) * H

const kind = (id: string, extra: Partial<KindEntry> = {}): KindEntry =>
  kindEntry(id, `template ${id}`, { firstSeen: FROM - 10 * 24 * H, lastSeen: FROM + H, count: 100, ...extra })

const incident = (key: string, firstSeen: number, lastSeen: number): DigestIncidentInput => ({
  key,
  rule: 'errors',
  title: `incident ${key}`,
  status: 'firing',
  firstSeen,
  lastSeen,
  count: 3,
})

describe('digestOf', () => {
  it('rule 1: counts the hours starting in [hour of from, hour of to): each hour in one digest', () => {
    const hourly: [number, number][] = [
      [hour(FROM) - H, 7],
      [hour(FROM), 2],
      [hour(FROM) + 5 * H, 3],
      [hour(TO), 11],
    ]
    // The hour `to` falls in is the next digest's first.
    expect(countWithin(hourly, TO, TO + 24 * H)).toBe(11)
    expect(countWithin(hourly, FROM, TO)).toBe(5)
    expect(digestOf([kind('a', { hourly })], [], { from: FROM, to: TO }).top.items[0]?.count).toBe(5)
  })

  it('rule 2: a kind first seen in the period is new, unless it was learned; newest first', () => {
    const older = kind('old', { firstSeen: FROM + H })
    const newer = kind('new', { firstSeen: FROM + 2 * H })
    const learned = kind('learned', { firstSeen: FROM + 3 * H, learned: true })
    const before = kind('before', { firstSeen: FROM - 1 })
    expect(isNewIn(learned, FROM, TO)).toBe(false)
    expect(isNewIn(before, FROM, TO)).toBe(false)
    expect(isNewIn(kind('at-to', { firstSeen: TO }), FROM, TO)).toBe(false)
    const digest = digestOf([older, learned, before, newer], [], { from: FROM, to: TO })
    expect(digest.newKinds.items.map((k) => k.id)).toEqual(['new', 'old'])
  })

  it('rule 3: a kind seen again in the period after its incident was resolved has regressed', () => {
    const back = kind('back', { lastResolved: FROM - H, lastSeen: FROM + 2 * H })
    const quiet = kind('quiet', { lastResolved: FROM + 3 * H, lastSeen: FROM + 2 * H })
    const resolvedLater = kind('later', { lastResolved: TO + H, lastSeen: TO + 2 * H })
    const beforePeriod = kind('before', { lastResolved: FROM - 5 * H, lastSeen: FROM - H })
    const freshBack = kind('fresh', { firstSeen: FROM + H, lastResolved: FROM + 2 * H, lastSeen: FROM + 3 * H })
    expect([back, quiet, resolvedLater, beforePeriod, freshBack].map((k) => isRegressedIn(k, FROM, TO))).toEqual([
      true,
      false,
      false,
      false,
      false,
    ])
    const digest = digestOf([back, kind('back2', { lastResolved: FROM, lastSeen: FROM + 5 * H })], [], {
      from: FROM,
      to: TO,
    })
    expect(digest.regressed.items.map((k) => k.id)).toEqual(['back2', 'back'])
  })

  it('rule 4: the top kinds are those counted in the period, largest first, ties by id, at most `top`', () => {
    const at = hour(FROM) + H
    const kinds = [
      kind('b', { hourly: [[at, 5]] }),
      kind('a', { hourly: [[at, 5]] }),
      kind('c', { hourly: [[at, 9]] }),
      kind('none', { hourly: [[at - 3 * H, 40]] }),
    ]
    const digest = digestOf(kinds, [], { from: FROM, to: TO }, { top: 2, newKinds: 5, regressed: 5, incidents: 5 })
    expect(digest.top.items.map((k) => k.id)).toEqual(['c', 'a'])
    expect(digest.top.more).toBe(1)
  })

  it('rule 5: the incidents seen within the period, most recently seen first, with their acknowledgement', () => {
    const acked = { ...incident('acked', FROM - H, FROM + 4 * H), ack: { by: 'asha', at: FROM + 2 * H } }
    const list = [
      incident('early', FROM - 5 * H, FROM - H),
      incident('during', FROM + H, FROM + 2 * H),
      acked,
      incident('after', TO, TO + H),
    ]
    const digest = digestOf([], list, { from: FROM, to: TO })
    expect(digest.incidents.items.map((i) => i.key)).toEqual(['acked', 'during'])
    expect(digest.incidents.items[0]?.ack?.by).toBe('asha')
  })

  it('rule 6: every list is cut at its maximum and says how many it left out; totals count all', () => {
    const kinds = Array.from({ length: 7 }, (_, i) =>
      kind(`k${i}`, { firstSeen: FROM + i * H, hourly: [[hour(FROM) + i * H, i + 1]] }),
    )
    const incidents = Array.from({ length: 4 }, (_, i) => incident(`i${i}`, FROM, FROM + i))
    const limits = { top: 3, newKinds: 2, regressed: 1, incidents: 1 }
    const digest = digestOf(kinds, incidents, { from: FROM, to: TO }, limits)
    expect([digest.newKinds.items.length, digest.newKinds.more]).toEqual([2, 5])
    expect([digest.top.items.length, digest.top.more]).toEqual([3, 4])
    expect([digest.incidents.items.length, digest.incidents.more]).toEqual([1, 3])
    expect(digest.totals).toEqual({ events: 28, kinds: 7, newKinds: 7, regressed: 0, incidents: 4 })
  })

  it('rule 7: one bucket per hour of rule 1; a week in buckets of 7 hours', () => {
    const day = bucketsOf(
      [
        [hour(FROM), 1],
        [hour(FROM) + 23 * H, 4],
        [hour(TO), 9],
      ],
      FROM,
      TO,
    )
    expect(day).toHaveLength(24)
    expect([day[0], day[23]]).toEqual([1, 4])
    const weekFrom = Date.UTC(2026, 10, 24)
    const week = bucketsOf(
      [
        [weekFrom + 6 * H, 2],
        [weekFrom + 7 * H, 3],
      ],
      weekFrom,
      weekFrom + 7 * 24 * H,
    )
    expect(week).toHaveLength(24)
    expect([week[0], week[1]]).toEqual([2, 3])
    expect(digestOf([], [], { from: weekFrom, to: weekFrom + 7 * 24 * H }).bucketMs).toBe(7 * H)
  })
})
