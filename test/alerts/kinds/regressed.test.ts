// One test per numbered rule of alerts/kinds/regressed.ts.
import { describe, expect, it } from 'vitest'
import { regressedVerdict, type RegressedInput } from '../../../alerts/kinds/regressed'

const DAY = 86_400_000
const input = (extra: Partial<RegressedInput>): RegressedInput => ({
  ...{ isNew: false, previousSeen: 10 * DAY - 1000, lastResolved: undefined, pagedAt: undefined },
  ...{ deployAt: undefined, watchesDeploys: false, now: 10 * DAY, quietMs: 7 * DAY },
  ...extra,
})

describe('kind: regressed decisions', () => {
  it("1. a kind's first line is never a regression", () => {
    expect(regressedVerdict(input({ isNew: true, previousSeen: undefined, lastResolved: 1 }))).toEqual({ page: false })
  })

  it('2. back after its incident resolved, once per resolve', () => {
    expect(regressedVerdict(input({ lastResolved: 9 * DAY }))).toEqual({ page: true, why: 'resolved' })
    expect(regressedVerdict(input({ lastResolved: 9 * DAY, pagedAt: 9 * DAY + 5 }))).toEqual({ page: false })
  })

  it('3. with deploys, only once a deploy came after the resolve', () => {
    const resolved = input({ lastResolved: 9 * DAY, watchesDeploys: true })
    expect(regressedVerdict(resolved)).toEqual({ page: false })
    expect(regressedVerdict({ ...resolved, deployAt: 8 * DAY })).toEqual({ page: false })
    expect(regressedVerdict({ ...resolved, deployAt: 9 * DAY + 1 })).toEqual({ page: true, why: 'resolved' })
  })

  it('4. back after quiet: its previous line at least quiet old', () => {
    expect(regressedVerdict(input({ previousSeen: 3 * DAY }))).toEqual({ page: true, why: 'quiet' })
    expect(regressedVerdict(input({ previousSeen: 3 * DAY + 1 }))).toEqual({ page: false })
  })

  it('5. anything else is not a regression', () => {
    expect(regressedVerdict(input({}))).toEqual({ page: false })
  })
})
