// Rules on kinds through the engine, with a fake clock: lines in, pages out (alerts/kinds/kind-rules.ts).
import { describe, expect, it } from 'vitest'
import { createAlertEngine, type AlertEngine } from '../../../alerts/engine'
import { hash53 } from '../../../alerts/hash53'
import type { KindRuleConfig } from '../../../alerts/kinds/kind-rules-config'
import type { KindEngineOptions } from '../../../alerts/kinds/kind-rules-engine'
import type { KindMiner } from '../../../alerts/kinds/types'
import type { RuleConfig } from '../../../alerts/rule'
import { channelOf, createClock, rulesOf, silenceOf } from '../helpers'

const MIN = 60_000

/** A stand-in miner (the real one is tested on its own): digits are the variable parts. */
function fakeMiner(calls = { n: 0 }): KindMiner {
  return {
    mine(line) {
      calls.n++
      const template = line.msg.replace(/\d+/g, '<*>')
      return { id: hash53(template), template, created: false }
    },
    seed: () => undefined,
    resolve: () => undefined,
    stats: () => ({ kinds: 0, evicted: 0, mined: calls.n }),
  }
}

type Written = Record<string, unknown> & { kinds?: KindRuleConfig }

function engineOf(written: Written[], kinds: KindEngineOptions = {}): AlertEngine {
  const rules: RuleConfig[] = written.map((w, i) => {
    const { kinds: kind, ...rest } = w
    const config = rulesOf([{ name: `r${i}`, ...rest }], ['sms'])[0] as RuleConfig
    return { ...config, kinds: kind }
  })
  return createAlertEngine({
    rules,
    channels: [channelOf({ type: 'sms', max_length: 400 })],
    kinds: { learnMs: 0, host: 'web-1', miner: fakeMiner(), ...kinds },
  })
}

const error = (msg: string, source = 'app') => ({ text: JSON.stringify({ level: 50, msg }), source })
const NEW: KindRuleConfig = { type: 'new', minCount: 1, withinMs: undefined }

function feed(engine: AlertEngine, msg: string, now: number, source = 'app'): string[] {
  const line = error(msg, source)
  return engine.ingest(line.text, now, line.source).map((d) => (d.message.type === 'sms' ? d.message.text : ''))
}

describe('rules on kinds in the engine', () => {
  it('kind: new pages a kind once, the first time it is seen; another kind pages on its own', () => {
    const clock = createClock()
    const engine = engineOf([{ kinds: NEW }])
    expect(feed(engine, 'Connection refused to 10.0.0.1:5432', clock.now())).toEqual([
      'FIRING NEW error kind on web-1 (1x in 0 s): Connection refused to <*>.<*>.<*>.<*>:<*> (1x, r0)',
    ])
    for (let i = 0; i < 50; i++)
      expect(feed(engine, `Connection refused to 10.0.0.${i}:1`, clock.advance(1000))).toEqual([])
    expect(feed(engine, 'disk 3 full', clock.advance(1000))).toHaveLength(1)
    expect(engine.incidents()).toHaveLength(2)
    expect(engine.kinds?.entries().map((e) => e.count)).toEqual([51, 1])
  })

  it('kind: new with min_count and within pages once the kind was seen that often in the window', () => {
    const clock = createClock()
    const engine = engineOf([{ kinds: { type: 'new', minCount: 3, withinMs: 10 * MIN } }])
    expect(feed(engine, 'timeout after 30s', clock.now())).toEqual([])
    expect(feed(engine, 'timeout after 31s', clock.advance(11 * MIN))).toEqual([])
    expect(feed(engine, 'timeout after 32s', clock.advance(MIN))).toEqual([])
    const page = feed(engine, 'timeout after 33s', clock.advance(MIN))
    expect(page).toEqual(['FIRING NEW error kind on web-1 (4x in 13 min): timeout after <*>s (1x, r0)'])
  })

  it('a first start learns: kinds seen while learning are recorded, not paged; a later new kind pages', () => {
    const clock = createClock()
    const engine = engineOf([{ kinds: NEW }], { learnMs: 60 * MIN })
    expect(feed(engine, 'known failure 1', clock.now())).toEqual([])
    expect(feed(engine, 'known failure 2', clock.advance(61 * MIN))).toEqual([])
    expect(engine.kinds?.entries()[0]?.learned).toBe(true)
    expect(feed(engine, 'brand new failure', clock.now())).toHaveLength(1)
  })

  it('kind: regressed pages a kind back after its incident resolved', () => {
    const clock = createClock()
    const regressed: KindRuleConfig = { type: 'regressed', quietMs: 7 * 24 * 60 * MIN, deploys: undefined }
    const engine = engineOf([
      { kinds: NEW, resolve_after: '5m' },
      { kinds: regressed, title: 'BACK: {{kind.template}} first seen {{kind.first_seen}}' },
    ])
    const first = clock.now()
    expect(feed(engine, 'payment 7 failed', first)).toHaveLength(1)
    expect(feed(engine, 'payment 8 failed', clock.advance(MIN))).toEqual([])
    engine.tick(clock.advance(6 * MIN))
    expect(engine.incidents()).toEqual([])
    expect(engine.kinds?.entries()[0]?.lastResolved).toBe(clock.now())
    expect(feed(engine, 'payment 9 failed', clock.advance(MIN))).toEqual([
      `FIRING BACK: payment <*> failed first seen ${new Date(first).toISOString()} (1x, r1)`,
    ])
    expect(feed(engine, 'payment 10 failed', clock.advance(MIN))).toEqual([])
  })

  it('kind: regressed with deploys waits for a deploy after the resolve', () => {
    const clock = createClock()
    const deploys = { sources: ['app'], match: [{ kind: 'regex' as const, path: 'msg', regex: /starting version/ }] }
    const engine = engineOf([
      { kinds: NEW, resolve_after: '5m' },
      { kinds: { type: 'regressed', quietMs: 7 * 24 * 60 * MIN, deploys } },
    ])
    feed(engine, 'payment 7 failed', clock.now())
    engine.tick(clock.advance(6 * MIN))
    expect(feed(engine, 'payment 8 failed', clock.advance(MIN))).toEqual([])
    engine.ingest(JSON.stringify({ level: 30, msg: 'starting version 2.4.1' }), clock.advance(MIN), 'app')
    expect(feed(engine, 'payment 9 failed', clock.advance(MIN))).toHaveLength(1)
  })

  it('spike pages a kind at factor times its baseline rate', () => {
    const clock = createClock()
    const spike: KindRuleConfig = { type: 'spike', factor: 5, baselineMs: 10 * MIN, windowMs: MIN, min: 5 }
    const engine = engineOf([{ kinds: spike, title: 'SPIKE {{kind.window_count}}x {{kind.template}}' }])
    for (let i = 0; i < 12; i++) expect(feed(engine, `queue ${i} slow`, clock.advance(MIN))).toEqual([])
    const sent: string[] = []
    for (let i = 0; i < 5; i++) sent.push(...feed(engine, `queue ${i} slow`, clock.advance(1000)))
    expect(sent).toEqual(['FIRING SPIKE 5x queue <*> slow (1x, r0)'])
  })

  it("ratio pages when the matching share of the source's lines is above the threshold", () => {
    const clock = createClock()
    const ratio: KindRuleConfig = { type: 'ratio', above: 0.05, withinMs: 5 * MIN, minLines: 100 }
    const engine = engineOf([{ kinds: ratio, title: '{{kind.share}} of {{kind.source}} fail' }])
    engine.countLines('app', 100, clock.now())
    for (let i = 0; i < 5; i++) expect(feed(engine, `request ${i} failed`, clock.advance(1000))).toEqual([])
    expect(feed(engine, 'request 6 failed', clock.advance(1000))).toEqual(['FIRING 6% of app fail (1x, r0)'])
  })

  it('a line no kind rule takes goes on to the next rule', () => {
    const clock = createClock()
    const engine = engineOf([{ kinds: NEW }, {}])
    expect(feed(engine, 'cache 1 miss', clock.now())).toHaveLength(1)
    engine.resolve(engine.incidents()[0]?.key as string, { by: 'asha', via: 'console' }, clock.advance(1000))
    engine.tick(clock.advance(1000))
    expect(feed(engine, 'cache 2 miss', clock.advance(1000))).toHaveLength(1)
    expect(engine.incidents().map((i) => i.rule)).toEqual(['r1'])
  })

  it('a silence kind=<id> mutes that kind and no other', () => {
    const clock = createClock()
    const engine = engineOf([{ kinds: NEW }])
    const muted = hash53('disk <*> full')
    engine.addSilence(silenceOf({ matchers: { kind: muted }, ends_at: clock.now() + 60 * MIN }), clock.now())
    expect(feed(engine, 'disk 3 full', clock.now())).toEqual([])
    expect(engine.incidents()[0]?.lastLine.record.kind).toMatchObject({ id: muted, template: 'disk <*> full' })
    expect(feed(engine, 'cache 1 miss', clock.advance(1000))).toHaveLength(1)
  })

  it('without a kind rule the engine has no kind table and mines nothing', () => {
    const calls = { n: 0 }
    const engine = engineOf([{}], { miner: fakeMiner(calls) })
    expect(feed(engine, 'boom 1', 0)).toHaveLength(1)
    expect(engine.kinds).toBeUndefined()
    expect(calls.n).toBe(0)
  })
})
