// One test per rule of agent/cli/test-page/steps.ts.
import { describe, expect, it } from 'vitest'
import { countdown, DEADLINE_GRACE_MS, newSteps, outcomeOf, unshownNotes } from '../../../../agent/cli/test-page/steps'
import type { TestPageView } from '../../../../agent/daemon/console/test-page-types'

function page(over: Partial<TestPageView> = {}): TestPageView {
  return {
    id: 'abc123',
    test: true,
    incident: 'logx-test-page:abc123',
    target: 'asha',
    person: 'asha',
    text: 'TEST PAGE from logx-agent on web-1: reply by missed call to 15550199999 to confirm',
    startedAt: 1_000,
    queuedAt: 1_200,
    deadline: 301_000,
    ackNumber: '15550199999',
    inboxUrl: undefined,
    channels: [
      {
        channel: 'oncall-sms',
        type: 'sms',
        status: 'queued',
        sentAt: undefined,
        deliveredAt: undefined,
        apiStatus: undefined,
      },
    ],
    acknowledged: undefined,
    state: 'waiting',
    error: undefined,
    ...over,
  }
}

describe('test-page steps', () => {
  it('rule 1: acknowledged ends with exit 0', () => {
    const acked = page({ state: 'acknowledged', acknowledged: { at: 13_000, by: 'asha', caller: '+919800000001' } })
    expect(outcomeOf(acked, 2_000)).toEqual({ kind: 'acknowledged', exitCode: 0 })
  })

  it('rule 2: timed out in the agent, or still waiting past the deadline and its grace, ends with exit 1', () => {
    expect(outcomeOf(page({ state: 'timed_out' }), 2_000)).toEqual({ kind: 'timed_out', exitCode: 1 })
    expect(outcomeOf(page(), 301_000 + DEADLINE_GRACE_MS + 1)).toEqual({ kind: 'timed_out', exitCode: 1 })
  })

  it('rule 3: a page that failed in the agent ends with exit 1', () => {
    expect(outcomeOf(page({ state: 'failed', error: 'boom' }), 2_000)).toEqual({ kind: 'failed', exitCode: 1 })
  })

  it('rule 4: otherwise it waits (the grace included)', () => {
    expect(outcomeOf(page({ state: 'starting' }), 2_000)).toEqual({ kind: 'waiting' })
    expect(outcomeOf(page(), 301_000 + DEADLINE_GRACE_MS)).toEqual({ kind: 'waiting' })
  })

  it('rule 5: each step is reported once, with the time it took since the start', () => {
    const reported = new Set<string>()
    expect(newSteps(page(), reported)).toEqual(['queued: sms via oncall-sms (0.2s)'])
    expect(newSteps(page(), reported)).toEqual([])
    const channel = {
      channel: 'oncall-sms',
      type: 'sms',
      status: 'delivered' as const,
      sentAt: 2_000,
      deliveredAt: 3_500,
      apiStatus: 'delivered',
    }
    const acked = page({ channels: [channel], acknowledged: { at: 13_000, by: 'asha', caller: '+919800000001' } })
    expect(newSteps(acked, reported)).toEqual([
      'sent: sms via oncall-sms, the API lists it (1.0s)',
      'delivered: sms via oncall-sms, the API says "delivered" (2.5s)',
      'acknowledged: missed call from +919800000001 (asha) (12.0s)',
    ])
  })

  it('rule 6: a channel the API showed no record or no final status for says so, once at the end', () => {
    const shown = {
      channel: 'ops-mail',
      type: 'mail',
      status: 'sent' as const,
      sentAt: 2_000,
      deliveredAt: undefined,
      apiStatus: 'queued',
    }
    const notes = unshownNotes(page({ channels: [...page().channels, shown] }))
    expect(notes).toEqual([
      'sms via oncall-sms: the API lists no record of it (it may not show one)',
      'mail via ops-mail: the API shows no delivery status for it (it may not show one)',
    ])
  })

  it('rule 7: the countdown shows minutes and seconds left, never below 0:00', () => {
    expect(countdown(page(), 1_000)).toBe('waiting for a missed call from asha: 5:00 left')
    expect(countdown(page(), 290_500)).toBe('waiting for a missed call from asha: 0:11 left')
    expect(countdown(page({ person: undefined }), 400_000)).toBe(
      'waiting for a missed call from a person of the config: 0:00 left',
    )
  })
})
