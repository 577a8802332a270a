import { describe, expect, it } from 'vitest'
import {
  DAY_MS,
  latestSlot,
  MAX_PERIOD_MS,
  nextSlot,
  planDigest,
  type DigestSchedule,
} from '../../../agent/daemon/digest-plan'

const H = 3_600_000
const kolkata: DigestSchedule = { everyMs: DAY_MS, at: { hour: 9, minute: 0 }, timeZone: 'Asia/Kolkata' }
/** 09:00 in Kolkata on 2026-12-02. */
const NINE = Date.UTC(2026, 11, 2, 3, 30)

describe('planDigest', () => {
  it('rule 1: with nothing covered, the schedule begins at the latest slot; nothing is sent', () => {
    expect(planDigest(kolkata, undefined, NINE + 2 * H)).toEqual({ kind: 'begin', covered: NINE })
    expect(planDigest(kolkata, undefined, NINE - 1)).toEqual({ kind: 'begin', covered: NINE - DAY_MS })
  })

  it('rule 2: a slot past what is covered is one digest now, whatever the number of slots missed', () => {
    expect(planDigest(kolkata, NINE - DAY_MS, NINE)).toEqual({ kind: 'send', from: NINE - DAY_MS, to: NINE })
    // Down for three days: one digest, covering them all, up to the latest slot.
    expect(planDigest(kolkata, NINE - 3 * DAY_MS, NINE + 5 * H)).toEqual({
      kind: 'send',
      from: NINE - 3 * DAY_MS,
      to: NINE,
    })
  })

  it('rule 3: a period is at most 7 days long', () => {
    expect(planDigest(kolkata, NINE - 30 * DAY_MS, NINE + H)).toEqual({
      kind: 'send',
      from: NINE - MAX_PERIOD_MS,
      to: NINE,
    })
  })

  it('rule 4: otherwise it waits for the next slot after now and what is covered', () => {
    expect(planDigest(kolkata, NINE, NINE)).toEqual({ kind: 'wait', until: NINE + DAY_MS })
    expect(planDigest(kolkata, NINE, NINE + 3 * H)).toEqual({ kind: 'wait', until: NINE + DAY_MS })
    // The clock set back a day: the period that went out is not sent again.
    expect(planDigest(kolkata, NINE, NINE - DAY_MS + H)).toEqual({ kind: 'wait', until: NINE + DAY_MS })
  })

  it('rule 5: under a day, `at` and every `every` round the clock; whole days counted from what is covered', () => {
    const sixHours = { ...kolkata, everyMs: 6 * H }
    // 09:00 -> 03:00, 09:00, 15:00, 21:00 local.
    expect(nextSlot(sixHours, NINE)).toBe(NINE + 6 * H)
    expect(latestSlot(sixHours, NINE - 1)).toBe(NINE - 6 * H)
    expect(nextSlot(sixHours, NINE + 13 * H)).toBe(NINE + 18 * H)
    const weekly = { ...kolkata, everyMs: 7 * DAY_MS }
    expect(planDigest(weekly, NINE, NINE + 2 * DAY_MS)).toEqual({ kind: 'wait', until: NINE + 7 * DAY_MS })
    expect(planDigest(weekly, NINE, NINE + 7 * DAY_MS + H)).toEqual({ kind: 'send', from: NINE, to: NINE + 7 * DAY_MS })
  })

  it('rule 6: slots are wall-clock times: DST moves them, a skipped one is after the gap, one per wall slot', () => {
    const newYork: DigestSchedule = { everyMs: DAY_MS, at: { hour: 9, minute: 0 }, timeZone: 'America/New_York' }
    // 09:00 EST on 7 March, 09:00 EDT on 8 March: 23 hours apart.
    const saturday = Date.UTC(2026, 2, 7, 14)
    expect(nextSlot(newYork, saturday)).toBe(Date.UTC(2026, 2, 8, 13))
    // 02:30 does not exist on 8 March: the slot is 03:30 EDT.
    const early = { ...newYork, at: { hour: 2, minute: 30 } }
    expect(nextSlot(early, Date.UTC(2026, 2, 8, 5))).toBe(Date.UTC(2026, 2, 8, 7, 30))
    // Hourly on 1 November: 01:00 happens twice; its slot is the first, and the next is 02:00 EST.
    const hourly = { ...newYork, everyMs: H, at: { hour: 0, minute: 0 } }
    const firstOne = Date.UTC(2026, 10, 1, 5)
    expect(nextSlot(hourly, firstOne - 1)).toBe(firstOne)
    expect(nextSlot(hourly, firstOne)).toBe(Date.UTC(2026, 10, 1, 7))
  })
})
