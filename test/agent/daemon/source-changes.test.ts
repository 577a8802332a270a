// One test per rule of agent/daemon/source-changes.ts: what a reload does to the running sources.
import { describe, expect, it } from 'vitest'
import type { SourceConfig } from '../../../agent/config/types'
import { planSourceChanges } from '../../../agent/daemon/source-changes'

const source = (name: string, path = `/var/log/${name}.log`): SourceConfig =>
  ({ name, type: 'file', paths: [path] }) as unknown as SourceConfig

describe('planSourceChanges', () => {
  it('1. keeps a running source whose config did not change', () => {
    const app = source('app')
    expect(planSourceChanges(['app'], [app], [source('app')])).toEqual({ stop: [], start: [] })
  })

  it('2. stops a running source that was removed, changed, or not in the previous config', () => {
    const plan = planSourceChanges(
      ['gone', 'moved', 'stray'],
      [source('gone'), source('moved')],
      [source('moved', '/x')],
    )
    expect(plan.stop).toEqual([
      { name: 'gone', removed: true },
      { name: 'moved', removed: false },
      { name: 'stray', removed: true },
    ])
  })

  it('3. lists the stops apart from the starts, so a changed source stops before it starts again', () => {
    const plan = planSourceChanges(['app'], [source('app')], [source('app', '/srv/app.log')])
    expect(plan.stop).toEqual([{ name: 'app', removed: false }])
    expect(plan.start.map((s) => s.source.paths)).toEqual([['/srv/app.log']])
  })

  it("4. starts every source not kept, in the new config's order, a failed one included", () => {
    const plan = planSourceChanges(
      ['kept'],
      [source('kept'), source('failed')],
      [source('new'), source('kept'), source('failed')],
    )
    expect(plan.start.map((s) => s.source.name)).toEqual(['new', 'failed'])
  })

  it('5. gives a start the previous config to fall back to; a new source has none', () => {
    const old = source('app')
    const plan = planSourceChanges(['app'], [old], [source('app', '/srv/app.log'), source('db')])
    expect(plan.start).toEqual([
      { source: source('app', '/srv/app.log'), previous: old },
      { source: source('db'), previous: undefined },
    ])
  })
})
