// The pure parts of a journald source: its journalctl command lines and its restart policy.
import { describe, expect, it } from 'vitest'
import { followArgs, lastEntryArgs } from '../../../agent/journald/journalctl-args'
import {
  FAILING_AFTER,
  FIRST_DELAY_MS,
  MAX_DELAY_MS,
  nextRestart,
  STABLE_MS,
} from '../../../agent/journald/restart-policy'

const config = { units: ['nginx.service', '-x.service'], priority: 3, journalFiles: ['/j/*.journal'] }

describe('journalctl command lines', () => {
  it('follows after the saved cursor with every filter, each value in its own --option=value', () => {
    expect(followArgs(config, { kind: 'cursor', cursor: 's=1;i=2' })).toEqual([
      '--output=json',
      '--all',
      '--quiet',
      '--no-pager',
      '--follow',
      '--file=/j/*.journal',
      '--unit=nginx.service',
      '--unit=-x.service',
      '--priority=3',
      '--after-cursor=s=1;i=2',
    ])
  })

  it('follows from the first stored entry with --no-tail (journalctl --follow alone starts at the last 10)', () => {
    expect(followArgs({ units: [], priority: undefined, journalFiles: [] }, { kind: 'beginning' })).toEqual([
      '--output=json',
      '--all',
      '--quiet',
      '--no-pager',
      '--follow',
      '--no-tail',
    ])
  })

  it('asks for the last matching entry without following', () => {
    const args = lastEntryArgs(config)
    expect(args).toContain('--lines=1')
    expect(args).not.toContain('--follow')
    expect(args).toContain('--unit=nginx.service')
  })
})

describe('restarting journalctl', () => {
  it('restarts soon after a run that delivered entries or lasted, and is not failing', () => {
    expect(nextRestart(5, { entries: 1, ranMs: 10 })).toEqual({ failures: 0, delayMs: FIRST_DELAY_MS, failing: false })
    expect(nextRestart(5, { entries: 0, ranMs: STABLE_MS })).toEqual({
      failures: 0,
      delayMs: FIRST_DELAY_MS,
      failing: false,
    })
  })

  it('doubles the wait for each failed run in a row, up to the maximum', () => {
    const delays: number[] = []
    let failures = 0
    for (let i = 0; i < 10; i++) {
      const decision = nextRestart(failures, { entries: 0, ranMs: 5 })
      failures = decision.failures
      delays.push(decision.delayMs)
    }
    expect(delays.slice(0, 4)).toEqual([500, 1000, 2000, 4000])
    expect(Math.max(...delays)).toBe(MAX_DELAY_MS)
  })

  it(`is failing from ${FAILING_AFTER} failed runs in a row`, () => {
    expect(nextRestart(FAILING_AFTER - 2, { entries: 0, ranMs: 0 }).failing).toBe(false)
    expect(nextRestart(FAILING_AFTER - 1, { entries: 0, ranMs: 0 }).failing).toBe(true)
  })
})
