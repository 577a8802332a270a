// The digest of what the agent itself mined: a running agent (in-process, its embedded sandbox, its
// clock moved) reads error lines into kinds during a period, then, past the period's end, a reload
// adds `digest:` and the digest mail lists those kinds with their counts. With `digest:` and no rule on
// kinds, the kinds of the lines the rules select are kept for it all the same.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readAgentConfig } from '../../../agent/config/load/load-config'
import type { AgentConfig } from '../../../agent/config/types'
import { startAgent } from '../../../agent/daemon/agent'
import { DIGEST_STATE_FILE } from '../../../agent/daemon/digest-state'
import { DAY_MS } from '../../../agent/daemon/digest-plan'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'
import { metric, records } from './helpers'

const H = 3_600_000
/** 09:00 in Asia/Kolkata on 2026-12-02. */
const NINE = Date.UTC(2026, 11, 2, 3, 30)

const KIND_RULE = '  - { name: new-kinds, kind: new, level: error, notify: team-mail }'

async function loadConfig(dir: string, digest: string, rules = KIND_RULE): Promise<AgentConfig> {
  const file = join(dir, 'agent.yaml')
  writeFileSync(
    file,
    `messaging: { sandbox: { listen: "127.0.0.1:0" } }
state_dir: ${join(dir, 'state')}
sources: [{ name: app, paths: [${join(dir, 'logs')}/*.log], start_at: beginning }]
channels:
  team-mail: { type: mail, from: logx@example.com, to: ops@example.com, format: text }
rules:
${rules}
metrics: { listen: 127.0.0.1:0 }
${digest}
`,
  )
  const loaded = await readAgentConfig(file, { env: {} })
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems))
  return loaded.config
}

const DIGEST = 'digest: { every: 1d, at: "09:00", time_zone: Asia/Kolkata, notify: team-mail }'

describe('the digest of the kinds the agent mined', () => {
  it.each([
    { name: 'a rule on kinds, the digest added by a reload', rules: KIND_RULE, first: '' },
    {
      name: 'no rule on kinds, a digest from the start',
      rules: '  - { name: errors, level: error, notify: team-mail }',
      first: DIGEST,
    },
  ])(
    'lists the kinds read during the period, with their counts: $name',
    async ({ rules, first }) => {
      const dir = tempDir('digest-kinds')
      const state = join(dir, 'state')
      mkdirSync(state, { recursive: true, mode: 0o700 })
      mkdirSync(join(dir, 'logs'))
      const covered = { version: 1, covered: NINE - DAY_MS, sentAt: NINE - DAY_MS }
      writeFileSync(join(state, DIGEST_STATE_FILE), JSON.stringify(covered), { mode: 0o600 })
      const lines = [
        ...[1, 2, 3].map((i) => `2026-12-02 07:00:0${i} ERROR Connection refused to 10.0.0.${i}:5432`),
        '2026-12-02 07:00:09 ERROR disk /var 91% full on db-1',
      ]
      writeFileSync(join(dir, 'logs', 'app.log'), `${lines.join('\n')}\n`)
      // Mid-period while the lines are read; past its end when the digest is added.
      let skew = NINE - 2 * H - Date.now()
      const log = createAgentLogger({ level: 'silent' })
      const agent = await startAgent(await loadConfig(dir, first, rules), { log, now: () => Date.now() + skew })
      try {
        // A first start learns its kinds (kinds.learn), pages none: the gauge says when they are in the table.
        await pollUntil('the kinds mined', async () => (await metric(agent.metricsUrl ?? '', 'logx_agent_kinds')) >= 2)
        skew = NINE + 1000 - Date.now()
        expect(await agent.apply(await loadConfig(dir, DIGEST, rules))).toEqual([])
        const [mail] = await pollUntil('the digest', async () => {
          const found = await records(agent.endpoint.baseUrl, 'mail')
          const digests = found.filter((m) => String(m.record.subject).startsWith('logx digest'))
          return digests.length > 0 ? digests : undefined
        })
        const text = String(mail?.record.message)
        expect(String(mail?.record.subject)).toMatch(/^logx digest on .+: 0 new kinds, 0 regressed, 4 events/)
        expect(text).toMatch(/Top kinds:\n {2}3x {2}error {2}Connection refused to <\*>/)
        expect(text).toMatch(/1x {2}error {2}disk <\*>/)
      } finally {
        await agent.stop(5000)
      }
    },
    60_000,
  )
})
