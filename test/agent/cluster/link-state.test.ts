import { describe, expect, it } from 'vitest'
import {
  initialLinkState,
  nextOnDown,
  nextOnUp,
  onConnectFailure,
  reconnectDelayMs,
  type LinkState,
} from '../../../agent/cluster/link-state'

const up = (everUp = true): LinkState => ({
  status: { status: 'up', reason: undefined, since: 100 },
  everUp,
  episodeOpen: false,
})
const degraded = (reason: string, episodeOpen = true, everUp = true): LinkState => ({
  status: { status: 'degraded', reason, since: 100 },
  everUp,
  episodeOpen,
})

describe('the Redis link going down', () => {
  it('1: opens one counted episode at the first failure, even when the start already said degraded', () => {
    const first = nextOnDown(initialLinkState(0), 'Redis unreachable: ECONNREFUSED', 50)
    expect(first.episode).toBe(true)
    expect(first.report).toBe(false)
    expect(first.state.status).toEqual({ status: 'degraded', reason: 'Redis unreachable: ECONNREFUSED', since: 0 })
    expect(nextOnDown(first.state, 'Redis unreachable: ETIMEDOUT', 60).episode).toBe(false)
  })

  it('2: changes nothing for the same reason while degraded', () => {
    const state = degraded('Redis unreachable: ECONNREFUSED')
    const step = nextOnDown(state, 'Redis unreachable: ECONNREFUSED', 500)
    expect(step).toEqual({ state, report: false, episode: false, reconnect: false })
  })

  it('3: takes another reason while degraded, keeping since, without a report', () => {
    const step = nextOnDown(degraded('Redis unreachable: ECONNREFUSED'), 'Redis unreachable: ETIMEDOUT', 500)
    expect(step.state.status).toEqual({ status: 'degraded', reason: 'Redis unreachable: ETIMEDOUT', since: 100 })
    expect(step.report).toBe(false)
    expect(step.episode).toBe(false)
  })

  it('4: turns a failure while up into degraded since then, reported', () => {
    const step = nextOnDown(up(), 'Redis unreachable: no answer within 500 ms', 700)
    expect(step.state.status).toEqual({
      status: 'degraded',
      reason: 'Redis unreachable: no answer within 500 ms',
      since: 700,
    })
    expect(step.report).toBe(true)
    expect(step.episode).toBe(true)
  })
})

describe('the Redis link coming up', () => {
  it('5: changes nothing when already up', () => {
    const state = up()
    expect(nextOnUp(state, 900)).toEqual({ state, report: false, episode: false, reconnect: false })
  })

  it('6: closes the episode and reports; a reconnect only when it was up before', () => {
    const again = nextOnUp(degraded('Redis unreachable: ECONNRESET'), 900)
    expect(again.state).toEqual({
      status: { status: 'up', reason: undefined, since: 900 },
      everUp: true,
      episodeOpen: false,
    })
    expect(again.report).toBe(true)
    expect(again.reconnect).toBe(true)
    const first = nextOnUp(initialLinkState(0), 10)
    expect(first.report).toBe(true)
    expect(first.reconnect).toBe(false)
  })
})

describe('the reconnect strategy', () => {
  it('7: fails the start on a refused user or password, without a retry', () => {
    expect(onConnectFailure(true, true, 0)).toEqual({ kind: 'fatal' })
  })

  it('8: retries anything else after the backoff, ending a start degraded', () => {
    expect(onConnectFailure(true, false, 0)).toEqual({ kind: 'retry', delayMs: 50, endStart: true })
    expect(onConnectFailure(false, true, 3)).toEqual({ kind: 'retry', delayMs: 400, endStart: false })
    expect(onConnectFailure(false, false, 30)).toEqual({ kind: 'retry', delayMs: 2_000, endStart: false })
    expect(reconnectDelayMs(5)).toBe(1_600)
  })
})
