// What the agent skips it counts and says, with where: a line over max_line_bytes is cut (logged with
// its file and offset), lines that look like JSON and are not are logged per batch, and a line nested
// deeper than any stack can walk still alerts, a giant line's mail stays small enough to be accepted;
// the lines after all of them alert as usual.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
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
import { pollUntil } from '../../helpers/poll-until'

describe('skipped lines', () => {
  let ws: Workspace | undefined
  let agent: RunningAgent | undefined

  afterAll(async () => {
    await agent?.kill('SIGKILL')
    ws?.remove()
  })

  it('are counted and logged with file and offset; the agent goes on', async () => {
    ws = createWorkspace()
    mkdirSync(ws.logs, { recursive: true })
    const file = join(ws.logs, 'app.log')
    writeFileSync(file, '')
    ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources: [{ name: app, paths: [${ws.logs}/*.log], start_at: beginning, max_line_bytes: 1000000 }]
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
  ops-mail: { type: mail, from: a@example.com, to: b@example.com }
metrics: { listen: 127.0.0.1:0 }
`)
    agent = await startAgentProcess(ws.config)
    const long = `{"level":50,"msg":"long","pad":"${'x'.repeat(1_200_000)}"}\n`
    const broken = '{"level":50,"msg":"broken\n'
    // Mail lists the line's fields: 100,000 levels would overflow JSON.stringify without the depth cap.
    const deep = `{"level":50,"msg":"deep one","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`
    appendFileSync(file, long + broken + deep + `${JSON.stringify({ level: 50, msg: 'after them' })}\n`)
    const running = agent
    await recordsWhen(running.baseUrl, 'the deep line and the line after', (all) => {
      const texts = smsTexts(all)
      // Four incidents (the cut line, the broken one, the deep one, the last), each by SMS and mail.
      return (
        texts.some((t) => t.includes('deep one')) &&
        texts.some((t) => t.includes('after them')) &&
        all.filter((r) => r.kind === 'mail').length === 4
      )
    }).catch((err: unknown) => {
      throw new Error(
        `${(err as Error).message}\n${running.output().slice(0, 4000)}\n${running.errors().slice(0, 2000)}`,
      )
    })
    // The mail of the 1 MB line is cut to a size the API takes: nothing failed.
    expect(await metric(running.metricsUrl, 'logx_agent_notifications_failed_total')).toBe(0)
    expect(await metric(running.metricsUrl, 'logx_agent_truncated_lines_total')).toBe(1)
    expect(await metric(running.metricsUrl, 'logx_agent_parse_errors_total')).toBe(2)
    const logged = await pollUntil('both warnings', () => {
      const lines = running
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      const cut = lines.find((l) => String(l.msg).includes('longer than max_line_bytes'))
      const bad = lines.find((l) => String(l.msg).includes('not valid JSON'))
      return cut !== undefined && bad !== undefined ? { cut, bad } : undefined
    })
    expect(logged.cut).toMatchObject({
      level: 40,
      source: 'app',
      path: file,
      endOffset: long.length,
      keptBytes: 1_000_000,
    })
    expect(logged.bad).toMatchObject({ level: 40, source: 'app', path: file, lines: 2, firstEndOffset: long.length })
    const health = (await (await fetch(`${running.metricsUrl}/health`)).json()) as { ok: boolean }
    expect(health.ok).toBe(true)
  })
})
