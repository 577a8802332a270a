// The console's backend over a real alert path (in memory, nothing sent: the rule pages no channel
// but the trail): what the console and the command line are shown and what they may change.
import { describe, expect, it } from 'vitest'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import type { AgentConfig } from '../../../agent/config/types'
import { createConsoleBackend, shortIdOf } from '../../../agent/daemon/console-backend'
import { toAlertLine } from '../../../agent/events/alert-line'
import { createAlertPath } from '../../../agent/acknowledge/with-actions'
import { setupOfConfig } from '../../../agent/delivery/alert-setup'

const quiet = { info() {}, warn() {}, error() {} }

function backendAt(now: { t: number }): {
  backend: ReturnType<typeof createConsoleBackend>
  config: AgentConfig
  ingest(msg: string): void
} {
  const result = parseAgentConfig(
    `state_dir: /tmp/never-written
sources: [{ name: app, paths: [/tmp/never/*.log] }]
people: { asha: { phone: "919800000001" }, ravi: { phone: "919800000003" } }
channels: { oncall-sms: { type: sms, people: [asha] } }
rules:
  - { name: errors, group_by: [msg], notify: oncall-sms }
silences:
  - { id: maintenance, matchers: { host: db9 }, ends_at: 4102444800000, comment: "db9 rebuilt" }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const config = result.config
  // No messaging API: what would be sent stays in the in-memory outbox.
  const path = createAlertPath({
    setup: setupOfConfig(config, []),
    statePath: undefined,
    outbox: { path: undefined },
    api: undefined,
    crm: undefined,
    log: quiet,
    now: now.t,
  })
  const backend = createConsoleBackend(
    path,
    () => config,
    () => 1000,
    () => now.t,
  )
  return {
    backend,
    config,
    ingest: (msg) => path.pipeline.ingest(toAlertLine(JSON.stringify({ level: 50, msg }), 'json', 'app').line, now.t),
  }
}

describe('the console backend', () => {
  it("lists open incidents, most recently seen first, with a short id from the key's hash", () => {
    const now = { t: 10_000 }
    const { backend, ingest } = backendAt(now)
    ingest('db down')
    now.t = 20_000
    ingest('cache down')
    const { items, total } = backend.incidents({})
    const list = [...items]
    expect(total).toBe(2)
    expect(list.map((i) => [i.title, i.state, i.paged])).toEqual([
      ['cache down', 'firing', ['asha']],
      ['db down', 'firing', ['asha']],
    ])
    expect(list[0]?.shortId).toBe(shortIdOf(list[0]?.id ?? ''))
    expect(list[0]?.id.startsWith('errors:')).toBe(true)
    expect([...backend.incidents({ limit: 1 }).items].map((i) => i.title)).toEqual(['cache down'])
    expect(backend.incidents({ state: 'acknowledged' }).total).toBe(0)
  })

  it('lists each incident as it is now: counts, acknowledgements and new pages show at the next request', () => {
    const now = { t: 10_000 }
    const { backend, ingest } = backendAt(now)
    ingest('db down')
    const first = [...backend.incidents({}).items][0]
    expect(first).toMatchObject({ count: 1, state: 'firing' })
    // Unchanged: the same summary is given again.
    expect([...backend.incidents({}).items][0]).toBe(first)
    now.t = 11_000
    ingest('db down')
    expect([...backend.incidents({}).items][0]).toMatchObject({ count: 2, lastSeen: 11_000 })
    backend.act(first?.shortId ?? '', 'ack', 'asha', 'console')
    expect([...backend.incidents({}).items][0]).toMatchObject({
      state: 'acknowledged',
      ack: { by: 'asha', via: 'console' },
    })
  })

  it('acts by short id and says why it cannot: unknown, ambiguous, already acknowledged', () => {
    const now = { t: 10_000 }
    const { backend, ingest } = backendAt(now)
    ingest('db down')
    const [incident] = [...backend.incidents({}).items]
    const short = incident?.shortId ?? ''
    const acked = backend.act(short, 'ack', 'ravi', 'console')
    expect(acked).toMatchObject({ ok: true, incident: { state: 'acknowledged', ack: { by: 'ravi', via: 'console' } } })
    expect(backend.act(short, 'ack', 'asha', 'cli')).toMatchObject({
      ok: false,
      status: 409,
      error: expect.stringContaining('already acknowledged by ravi'),
    })
    expect(backend.act('ffffffff', 'ack', 'asha', 'cli')).toMatchObject({ ok: false, status: 404 })
    expect(backend.act(short, 'resolve', 'asha', 'cli')).toMatchObject({ ok: true, incident: { state: 'resolved' } })
    expect(backend.incidents({}).total).toBe(0)
    const detail = backend.incident(short)
    expect(detail).toBeUndefined()
  })

  it("shows the config's silences beside run-time ones; only run-time ones expire from here", () => {
    const now = { t: 10_000 }
    const { backend } = backendAt(now)
    expect(backend.silences()).toEqual([
      {
        id: 'maintenance',
        matchers: { host: 'db9' },
        startsAt: 1000,
        endsAt: 4102444800000,
        comment: 'db9 rebuilt',
        createdBy: undefined,
        origin: 'config',
      },
    ])
    expect(backend.expireSilence('maintenance')).toMatchObject({
      ok: false,
      status: 409,
      error: expect.stringContaining('agent.yaml'),
    })
    const added = backend.addSilence({
      matchers: { rule: 'errors' },
      endsAt: now.t + 60_000,
      comment: 'deploy',
      by: 'asha',
    })
    expect(added).toMatchObject({
      ok: true,
      silence: { origin: 'runtime', createdBy: 'asha', matchers: { rule: 'errors' } },
    })
    expect(
      backend.addSilence({ matchers: { 'bad path!': 'x' }, endsAt: now.t + 1, comment: undefined, by: undefined }),
    ).toMatchObject({ ok: false, error: expect.stringContaining('matchers.bad path!') })
    const id = added.ok ? added.silence.id : ''
    expect(backend.silences().map((s) => s.id)).toEqual(['maintenance', id])
    expect(backend.expireSilence(id)).toMatchObject({ ok: true, silence: { id, endsAt: now.t } })
    expect(backend.expireSilence(id)).toMatchObject({ ok: false, status: 404 })
    expect(backend.people()).toEqual(['asha', 'ravi'])
  })
})
