// The incident a kind opened, as the kind table keeps it (KindEntry.incident), is the incident table's
// own key, `<rule>:<hash>` like every incident key: the engine finds it, and the digest tells an ended
// one under its rule's name (digest-incidents.ts reads the rule from the key).
import { expect, it } from 'vitest'
import { createAlertEngine } from '../../../alerts/engine'
import type { RuleConfig } from '../../../alerts/rule'
import { digestIncidentsOf } from '../../../agent/daemon/digest-incidents'
import { channelOf, rulesOf } from '../../alerts/helpers'

it("a kind's incident is the incident table's key, and a digest tells it under its rule", () => {
  const rule = { ...(rulesOf([{ name: 'new-errors' }], ['sms'])[0] as RuleConfig) }
  const kinds = { type: 'new', minCount: 1, withinMs: undefined } as const
  const engine = createAlertEngine({
    rules: [{ ...rule, kinds }],
    channels: [channelOf({ type: 'sms', max_length: 400 })],
    kinds: { learnMs: 0, host: 'web-1' },
  })
  const t0 = Date.parse('2026-12-02T10:00:00Z')
  expect(engine.ingest(JSON.stringify({ level: 50, msg: 'disk 3 full' }), t0, 'app')).toHaveLength(1)
  const [incident] = engine.incidents()
  const [kind] = engine.kinds?.entries() ?? []
  expect(incident?.key).toMatch(/^new-errors:/)
  expect(kind?.incident).toBe(incident?.key)
  expect(engine.incident(kind?.incident ?? '')?.rule).toBe('new-errors')

  engine.resolve(incident?.key ?? '', { by: 'asha', via: 'console' }, t0 + 60_000)
  const history = [
    { at: t0, kind: 'firing', text: 'disk <*> full' },
    { at: t0 + 60_000, kind: 'resolved', text: 'disk <*> full', by: 'asha' },
  ]
  const told = digestIncidentsOf([], engine.kinds?.entries() ?? [], () => history, t0 - 1)
  expect(told.map((i) => [i.key, i.rule, i.status])).toEqual([[incident?.key, 'new-errors', 'resolved']])
})
