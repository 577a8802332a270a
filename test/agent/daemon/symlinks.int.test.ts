// A running agent and a symlink in its log directory to a file it can read outside it (another
// app's log, holding error lines): the link is not read, so nothing of that file is paged; the agent
// says so once, with the link and its target, and counts it in /metrics. The file beside it pages.
import { mkdirSync, symlinkSync, writeFileSync, appendFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { pollUntil } from '../../helpers/poll-until'
import {
  agentConfig,
  metric,
  recordsWhen,
  smsTexts,
  startAgentInWorkspace,
  type AgentInWorkspace,
  type Workspace,
} from './helpers'

let started: AgentInWorkspace | undefined
afterAll(() => started?.stop())

/** Another app's log outside the log directory, holding an error line already. */
const secretOf = (ws: Workspace): string => join(ws.state, '..', 'other-app', 'secret.log')

it('does not page the lines of a file a symlink leads to outside the log directory', async () => {
  started = await startAgentInWorkspace(
    (ws) => agentConfig(ws, { sources: `  - { name: app, paths: [${ws.logs}/*.log], start_at: beginning }` }),
    (ws) => {
      const secret = secretOf(ws)
      mkdirSync(dirname(secret), { recursive: true })
      writeFileSync(secret, `${JSON.stringify({ level: 50, msg: 'SECRET other app error' })}\n`)
      symlinkSync(secret, join(ws.logs, 'linked.log'))
      writeFileSync(join(ws.logs, 'app.log'), '')
    },
  )
  const { ws, agent } = started
  const secret = secretOf(ws)
  appendFileSync(secret, `${JSON.stringify({ level: 50, msg: 'SECRET written later' })}\n`)
  appendFileSync(join(ws.logs, 'app.log'), `${JSON.stringify({ level: 50, msg: 'own error' })}\n`)
  const all = await recordsWhen(agent.baseUrl, 'the page of app.log', (records) =>
    smsTexts(records).some((text) => text.includes('own error')),
  )
  expect(smsTexts(all).filter((text) => text.includes('SECRET'))).toEqual([])
  expect(await metric(agent.metricsUrl, 'logx_agent_symlinks_refused_total')).toBe(1)
  const warning = await pollUntil('the warning', () =>
    agent
      .output()
      .split('\n')
      .find((line) => line.includes('LOGX_TAIL_ERR_SYMLINK_REFUSED')),
  )
  expect(warning).toContain(join(ws.logs, 'linked.log'))
  expect(warning).toContain('follow_symlinks')
})
