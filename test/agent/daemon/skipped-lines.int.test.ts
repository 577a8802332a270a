// What the agent skips it counts and says, with where: a line over max_line_bytes is cut (logged with
// its file and offset), lines that look like JSON and are not are logged per batch, and a line nested
// deeper than any stack can walk still alerts, a giant line's mail stays small enough to be accepted;
// the lines after all of them alert as usual.
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  agentConfig,
  metric,
  ONCALL_SMS_CHANNEL,
  recordsWhen,
  smsTexts,
  startAgentInWorkspace,
  type AgentInWorkspace,
} from './helpers'
import { pollUntil } from '../../helpers/poll-until'

describe('skipped lines', () => {
  let started: AgentInWorkspace | undefined
  afterAll(() => started?.stop())

  it('are counted and logged with file and offset; the agent goes on', async () => {
    started = await startAgentInWorkspace(
      (ws) =>
        agentConfig(ws, {
          sources: `  - { name: app, paths: [${ws.logs}/*.log], start_at: beginning, max_line_bytes: 1000000 }`,
          channels: [ONCALL_SMS_CHANNEL, 'ops-mail: { type: mail, from: a@example.com, to: b@example.com }'],
        }),
      (ws) => writeFileSync(join(ws.logs, 'app.log'), ''),
    )
    const { ws, agent } = started
    const file = join(ws.logs, 'app.log')
    const long = `{"level":50,"msg":"long","pad":"${'x'.repeat(1_200_000)}"}\n`
    const broken = '{"level":50,"msg":"broken\n'
    // Mail lists the line's fields: 100,000 levels would overflow JSON.stringify without the depth cap.
    const deep = `{"level":50,"msg":"deep one","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`
    appendFileSync(file, long + broken + deep + `${JSON.stringify({ level: 50, msg: 'after them' })}\n`)
    await recordsWhen(agent.baseUrl, 'the deep line and the line after', (all) => {
      const texts = smsTexts(all)
      // Four incidents (the cut line, the broken one, the deep one, the last), each by SMS and mail.
      return (
        texts.some((t) => t.includes('deep one')) &&
        texts.some((t) => t.includes('after them')) &&
        all.filter((r) => r.kind === 'mail').length === 4
      )
    }).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}\n${agent.output().slice(0, 4000)}\n${agent.errors().slice(0, 2000)}`)
    })
    // The mail of the 1 MB line is cut to a size the API takes: nothing failed.
    expect(await metric(agent.metricsUrl, 'logx_agent_notifications_failed_total')).toBe(0)
    expect(await metric(agent.metricsUrl, 'logx_agent_truncated_lines_total')).toBe(1)
    expect(await metric(agent.metricsUrl, 'logx_agent_parse_errors_total')).toBe(2)
    const logged = await pollUntil('both warnings', () => {
      const lines = agent
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
    const health = (await (await fetch(`${agent.metricsUrl}/health`)).json()) as { ok: boolean }
    expect(health.ok).toBe(true)
  })
})
