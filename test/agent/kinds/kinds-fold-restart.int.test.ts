// A kind the miner merged into another is one kind in a running agent (issue #29), across a restart:
// `session opened for user cyrus` and `... news` are merged when `root` arrives; the console lists one
// kind counting all five lines; restarted on the same state_dir, a `news` line counts on that kind and
// pages nothing as new (a line of a new kind after it does: the page the test waits for).
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startInProcessAgent, stopInProcessAgents, type InProcessAgent } from '../../helpers/in-process-agent'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'
import { recordsWhen, smsTexts } from '../daemon/helpers'

interface Kind {
  id: string
  template: string
  count: number
}

afterEach(stopInProcessAgents)

const stamp = (n: number): string => `2026-12-02T10:00:${String(n).padStart(2, '0')}Z`
const su = (n: number, user: string): string => `${stamp(n)} ERROR session opened for user ${user} by (uid=0)\n`

/** The agent's kinds once `ok` holds of them. */
async function kindsWhen(agent: InProcessAgent, what: string, ok: (kinds: Kind[]) => boolean): Promise<Kind[]> {
  return pollUntil(what, async () => {
    const answer = (await (await agent.console('/api/kinds')).json()) as { kinds: Kind[] }
    return ok(answer.kinds) ? answer.kinds : undefined
  })
}

it("merged kinds are one kind in the console, and after a restart an absorbed kind's line counts on it, not new", async () => {
  const dir = tempDir('kinds-fold-restart')
  const state = join(dir, 'state')
  mkdirSync(join(dir, 'logs'))
  const log = join(dir, 'logs', 'auth.log')
  appendFileSync(log, '')
  const config = `messaging: { sandbox: { listen: "127.0.0.1:0" } }
state_dir: ${state}
sources: [{ name: auth, paths: [${join(dir, 'logs')}/*.log] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
kinds: { learn: 0s }
metrics: { listen: 127.0.0.1:0 }
rules:
  - { name: new-errors, kind: new, notify: oncall-sms }
`
  const first = await startInProcessAgent(join(dir, 'agent.yaml'), state, config)
  appendFileSync(log, su(1, 'cyrus') + su(2, 'news') + su(3, 'cyrus') + su(4, 'news') + su(5, 'root'))
  const merged = await kindsWhen(first, 'the five lines counted', (kinds) => kinds[0]?.count === 5)
  expect(merged).toHaveLength(1)
  expect(merged[0]?.template).toContain('session opened for user <*>')
  await stopInProcessAgents()

  const again = await startInProcessAgent(join(dir, 'agent.yaml'), state, config)
  expect(await kindsWhen(again, 'the kind restored', (kinds) => kinds.length > 0)).toEqual([
    expect.objectContaining({ id: merged[0]?.id, count: 5 }),
  ])
  appendFileSync(log, su(6, 'news') + `${stamp(7)} ERROR disk full on /var/lib\n`)
  // The lines are read in order: once the disk-full kind pages, the news line before it was decided.
  const paged = await recordsWhen(again.baseUrl, 'the disk-full page', (all) =>
    smsTexts(all).some((text) => text.includes('disk full')),
  )
  expect(smsTexts(paged)).toHaveLength(1)
  const kinds = await kindsWhen(again, 'both kinds listed', (listed) => listed.length === 2)
  expect(kinds.find((kind) => kind.id === merged[0]?.id)?.count).toBe(6)
})
