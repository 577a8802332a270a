// A running agent and a symlink in its log directory to a file it can read outside it (another
// app's log, holding error lines): the link is not read, so nothing of that file is paged; the agent
// says so once, with the link and its target, and counts it in /metrics. The file beside it pages.
import { mkdirSync, symlinkSync, writeFileSync, appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { pollUntil } from '../../helpers/poll-until'
import {
  createWorkspace,
  messagingYaml,
  metric,
  recordsWhen,
  smsTexts,
  startAgentProcess,
  type RunningAgent,
  type Workspace,
} from './helpers'

let ws: Workspace | undefined
let agent: RunningAgent | undefined
afterAll(async () => {
  await agent?.kill('SIGKILL')
  ws?.remove()
})

it('does not page the lines of a file a symlink leads to outside the log directory', async () => {
  ws = createWorkspace()
  const elsewhere = join(ws.state, '..', 'other-app')
  mkdirSync(ws.logs, { recursive: true })
  mkdirSync(elsewhere, { recursive: true })
  const secret = join(elsewhere, 'secret.log')
  writeFileSync(secret, `${JSON.stringify({ level: 50, msg: 'SECRET other app error' })}\n`)
  symlinkSync(secret, join(ws.logs, 'linked.log'))
  writeFileSync(join(ws.logs, 'app.log'), '')
  ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources: [{ name: app, paths: [${ws.logs}/*.log], start_at: beginning }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
metrics: { listen: 127.0.0.1:0 }
`)
  agent = await startAgentProcess(ws.config)
  const running = agent
  appendFileSync(secret, `${JSON.stringify({ level: 50, msg: 'SECRET written later' })}\n`)
  appendFileSync(join(ws.logs, 'app.log'), `${JSON.stringify({ level: 50, msg: 'own error' })}\n`)
  const all = await recordsWhen(running.baseUrl, 'the page of app.log', (records) =>
    smsTexts(records).some((text) => text.includes('own error')),
  )
  expect(smsTexts(all).filter((text) => text.includes('SECRET'))).toEqual([])
  expect(await metric(running.metricsUrl, 'logx_agent_symlinks_refused_total')).toBe(1)
  const warning = await pollUntil('the warning', () =>
    running
      .output()
      .split('\n')
      .find((line) => line.includes('LOGX_TAIL_ERR_SYMLINK_REFUSED')),
  )
  expect(warning).toContain(join(ws.logs, 'linked.log'))
  expect(warning).toContain('follow_symlinks')
})
