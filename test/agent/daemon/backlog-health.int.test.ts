// A running agent mining a backlog of new kinds keeps answering: its reader hands big batches to the
// pipeline in slices and lets the event loop turn between them (agent/daemon/batch-slices.ts). Handed
// whole, the backlog was handled without a turn of the loop, and /metrics answered only once it was
// all read. The assertion is no timing: an answer came back while lines were still to be read.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { appendDistinctLines } from '../../drills/lib/kinds-lines'
import { pollUntil } from '../../helpers/poll-until'
import { createWorkspace, metric, smsRulesConfig, startAgentProcess, type RunningAgent } from './helpers'

// ~8 MB: twice what the tailer reads ahead (16 batches of 256 KiB), so reading ends only as the
// pipeline catches up; each line a kind never met, the miner's costliest path.
const BACKLOG_LINES = 200_000

it('answers /metrics and /health while mining a backlog of new kinds', { timeout: 120_000 }, async () => {
  const ws = createWorkspace()
  let agent: RunningAgent | undefined
  try {
    const rule = '  - name: new-kinds\n    level: error\n    kind: new\n    notify: oncall-sms\n'
    ws.writeConfig(smsRulesConfig(ws, rule, undefined, { sections: 'kinds: { max: 1000 }\n' }))
    mkdirSync(ws.logs, { recursive: true })
    await appendDistinctLines(join(ws.logs, 'app.log'), BACKLOG_LINES, 7)
    agent = await startAgentProcess(ws.config)
    const running = agent
    // The first answer once reading began: with the backlog handled in one turn, that is its end.
    const readThen = await pollUntil(
      'lines read',
      async () => {
        const read = await metric(running.metricsUrl, 'logx_agent_lines_read_total')
        return read > 0 ? read : undefined
      },
      { timeoutMs: 90_000 },
    )
    const health = (await (await fetch(`${running.metricsUrl}/health`)).json()) as { ok: boolean }
    expect(health.ok).toBe(true)
    expect(readThen).toBeLessThan(BACKLOG_LINES)
  } finally {
    await agent?.kill('SIGKILL')
    ws.remove()
  }
})
