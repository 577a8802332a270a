// A `kind: new` rule with min_count on a real agent process killed in between (issue #29): a kind seen 3
// times of 5, the agent SIGKILLed, seen twice more within the window, pages once; killed again after its
// page, its lines after the restart page nothing more. The sandbox runs in its own process, so what it
// received outlives each kill.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { pollUntil } from '../../helpers/poll-until'
import { createWorkspace, metric, records, recordsWhen, smsRulesConfig, smsTexts, startAgentProcess } from './helpers'
import { startSandboxProcess, type RunningAgent, type SandboxProcess, type Workspace } from './helpers'

const RULE = `
  - name: new-errors
    kind: new
    min_count: 5
    within: 10m
    notify: oncall-sms
`

let ws: Workspace | undefined
let sandbox: SandboxProcess | undefined
let agent: RunningAgent | undefined
afterAll(async () => {
  await agent?.kill('SIGKILL')
  await sandbox?.close()
  ws?.remove()
})

const timedOut = (n: number) => `2026-12-02T10:00:0${n % 10}Z ERROR upstream 10.0.0.${n} timed out after ${n}0 ms\n`

/** The kind's count as the running agent holds it, once it is at least `atLeast`. */
async function countReaches(running: RunningAgent, atLeast: number): Promise<number> {
  return pollUntil(`the kind counted ${atLeast} times`, async () => {
    const answer = (await (await running.console('/api/kinds')).json()) as { kinds: { count: number }[] }
    const count = answer.kinds[0]?.count ?? 0
    return count >= atLeast ? count : undefined
  })
}

it('a new kind pending its min_count at a SIGKILL pages once the count is met after the restart, and once', async () => {
  ws = createWorkspace()
  sandbox = await startSandboxProcess()
  mkdirSync(ws.logs, { recursive: true })
  const log = join(ws.logs, 'app.log')
  writeFileSync(log, '')
  ws.writeConfig(smsRulesConfig(ws, RULE, sandbox.api, { sections: 'kinds: { learn: 0s }\n' }))
  agent = await startAgentProcess(ws.config)
  appendFileSync(log, timedOut(1) + timedOut(2) + timedOut(3))
  await countReaches(agent, 3)
  expect(smsTexts(await records(sandbox.api.baseUrl))).toEqual([])
  // No stop, no last flush: what the rule counted must already be on disk.
  await agent.kill('SIGKILL')

  agent = await startAgentProcess(ws.config)
  appendFileSync(log, timedOut(4) + timedOut(5))
  const paged = await recordsWhen(sandbox.api.baseUrl, 'the new kind paged', (all) => smsTexts(all).length > 0)
  expect(smsTexts(paged)).toHaveLength(1)
  expect(smsTexts(paged)[0]).toMatch(/NEW error kind on \S+ \(\d+x in .*\): .*upstream <\*> timed out after <\*>/)
  // The outbox is at least once: killed before it wrote the page as delivered, the restart sends it again,
  // which is not the rule paging twice. Killed once it is empty, a second SMS can only be a second page.
  const running = agent
  await pollUntil('the page written as delivered', async () =>
    (await metric(running.metricsUrl, 'logx_agent_outbox_depth')) === 0 ? true : undefined,
  )
  await agent.kill('SIGKILL')

  agent = await startAgentProcess(ws.config)
  const before = await countReaches(agent, 1)
  appendFileSync(log, timedOut(6) + timedOut(7) + timedOut(8) + timedOut(9) + timedOut(10))
  await countReaches(agent, before + 5)
  expect(smsTexts(await records(sandbox.api.baseUrl))).toHaveLength(1)
})
