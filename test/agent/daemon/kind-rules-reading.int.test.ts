// Rules on kinds that need more of a file source than the lines a rule takes, in a running agent:
// `ratio` divides by every line the reader read (countLines, before the byte pre-filter), and
// `kind: regressed` with `deploys` sees an info-level deploy line that the pre-filter would drop.
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { startInProcessAgent, stopInProcessAgents, type InProcessAgent } from '../../helpers/in-process-agent'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'
import { recordsWhen, smsTexts } from './helpers'

interface Started extends InProcessAgent {
  log: string
}

afterEach(stopInProcessAgents)

async function start(rules: string): Promise<Started> {
  const dir = tempDir('kind-rules-reading')
  const state = join(dir, 'state')
  mkdirSync(join(dir, 'logs'))
  const log = join(dir, 'logs', 'app.log')
  appendFileSync(log, '')
  const started = await startInProcessAgent(
    join(dir, 'agent.yaml'),
    state,
    `messaging: { sandbox: { listen: "127.0.0.1:0" } }
state_dir: ${state}
sources: [{ name: app, paths: [${join(dir, 'logs')}/*.log] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
kinds: { learn: 0s }
metrics: { listen: 127.0.0.1:0 }
rules:
${rules}`,
  )
  return { ...started, log }
}

const stamp = (n: number): string => `2026-12-02T10:00:${String(n).padStart(2, '0')}Z`

it('a ratio rule pages when its lines are more than its share of every line of the file', async () => {
  const started = await start(
    '  - { name: error-share, level: error, ratio: { above: 20%, within: 5m, min_lines: 10 }, notify: oncall-sms }\n',
  )
  const infos = [1, 2, 3, 4, 5, 6, 7].map((n) => `${stamp(n)} INFO request ${n} served in ${n}ms\n`)
  const errors = [8, 9, 10].map((n) => `${stamp(n)} ERROR Connection refused to 10.0.0.${n}:5432\n`)
  // The errors last: whatever batches the reads make, every line before them is counted by then.
  appendFileSync(started.log, infos.join('') + errors.join(''))
  const all = await recordsWhen(started.baseUrl, 'the ratio page', (r) => smsTexts(r).length > 0)
  expect(smsTexts(all).join('\n')).toContain('Connection refused')
})

it('a regressed rule with deploys pages a resolved kind back after an info-level deploy line', async () => {
  const started = await start(`  - { name: new-errors, kind: new, notify: oncall-sms }
  - name: back-again
    kind: regressed
    deploys: { source: app, match: { msg: "/starting version/" } }
    notify: oncall-sms
`)
  const refused = (n: number): string => `${stamp(n)} ERROR Connection refused to 10.0.0.${n}:5432\n`
  appendFileSync(started.log, refused(1))
  await recordsWhen(started.baseUrl, 'the new kind page', (r) => smsTexts(r).length === 1)
  await started.resolveKindIncident()
  appendFileSync(started.log, `${stamp(5)} INFO starting version 2.4.1\n${refused(6)}`)
  const all = await recordsWhen(started.baseUrl, 'the regressed page', (r) => smsTexts(r).length >= 2)
  expect(smsTexts(all).at(-1)).toContain('Connection refused')
})
