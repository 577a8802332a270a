// One test per rule of agent/tail/link-decision.ts.
import { describe, expect, it } from 'vitest'
import { decideLink, type LinkFacts } from '../../../agent/tail/link-decision'

const logs = { base: '/srv/app/logs', realBase: '/srv/app/logs' }
const link = (path: string, target: string, bases = [logs]): LinkFacts => ({ path, target, bases })
const follow = { kind: 'follow' }
const outside = { kind: 'refuse', why: 'outside' }

describe('decideLink', () => {
  it('rule 1: outside follows every target', () => {
    expect(decideLink(link('/srv/app/logs/app.log', '/etc/shadow'), 'outside')).toEqual(follow)
  })

  it('rule 2: a path that resolves where it lies is followed, a linked base directory too, even with never', () => {
    expect(decideLink(link('/srv/app/logs/app.log', '/srv/app/logs/app.log'), 'never')).toEqual(follow)
    const linkedBase = { base: '/srv/app/logs', realBase: '/data/logs' }
    expect(decideLink(link('/srv/app/logs/a/app.log', '/data/logs/a/app.log', [linkedBase]), 'never')).toEqual(follow)
  })

  it('rule 3: never refuses a link, though its target is inside the base', () => {
    expect(decideLink(link('/srv/app/logs/current.log', '/srv/app/logs/app-2026.log'), 'never')).toEqual({
      kind: 'refuse',
      why: 'never',
    })
  })

  it('rule 4: a target inside the resolved base directory is followed', () => {
    expect(decideLink(link('/srv/app/logs/current.log', '/srv/app/logs/old/app.log'), 'inside')).toEqual(follow)
    const linkedBase = { base: '/srv/app/logs', realBase: '/data/logs' }
    expect(decideLink(link('/srv/app/logs/current.log', '/data/logs/x.log', [linkedBase]), 'inside')).toEqual(follow)
  })

  it('rule 5: a target inside a listed directory is followed', () => {
    const containers = { base: '/var/log/containers', realBase: '/var/log/containers' }
    const facts = link('/var/log/containers/api_ns_c-1.log', '/var/log/pods/ns_api_u/c/0.log', [containers])
    expect(decideLink(facts, ['/var/log/pods'])).toEqual(follow)
    expect(decideLink(facts, 'inside')).toEqual(outside)
  })

  it('rule 6: anything else is refused (a sibling named like the base is not inside it)', () => {
    expect(decideLink(link('/srv/app/logs/app.log', '/etc/shadow'), 'inside')).toEqual(outside)
    expect(decideLink(link('/srv/app/logs/app.log', '/srv/app/logs-other/app.log'), ['/var/log/pods'])).toEqual(outside)
    expect(decideLink(link('/srv/app/logs/app.log', '/srv/app/x.log', []), 'inside')).toEqual(outside)
  })
})
