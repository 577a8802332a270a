// The kinds of a real agent process, end to end: lines of a file mined by a rule on kinds, listed by
// GET /api/kinds with their counts, hourly counts, new mark and the incident a kind opened; the same
// through `logx-agent kinds --live` (found by its config's state_dir); "mute this kind" accepted by
// the silence API as a matcher kind=<id>.
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { kindsCommand } from '../../../agent/cli/kinds/kinds-command'
import { pollUntil } from '../../helpers/poll-until'
import { createWorkspace, messagingYaml, startAgentProcess, type RunningAgent, type Workspace } from './helpers'

interface Kind {
  id: string
  template: string
  count: number
  new: boolean
  hourly: number[]
  incident: string | undefined
}

let ws: Workspace | undefined
let agent: RunningAgent | undefined
afterAll(async () => {
  await agent?.kill('SIGKILL')
  ws?.remove()
})

it("lists a running agent's kinds: API, kinds --live, and a silence by kind", async () => {
  ws = createWorkspace()
  mkdirSync(ws.logs, { recursive: true })
  const log = join(ws.logs, 'app.log')
  appendFileSync(log, '')
  ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources: [{ name: app, paths: [${ws.logs}/*.log] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
kinds: { learn: 0s }
rules:
  - { name: new-errors, kind: new, notify: oncall-sms }
metrics: { listen: 127.0.0.1:0 }
`)
  agent = await startAgentProcess(ws.config)
  const refused = (n: number) => `2026-12-02T10:00:0${n}Z ERROR Connection refused to 10.0.0.${n}:543${n}\n`
  appendFileSync(log, refused(1) + refused(2) + '2026-12-02T10:00:05Z ERROR disk full on /var/lib\n' + refused(3))
  const kinds = await pollUntil('two kinds with all their lines', async () => {
    const answer = (await (await agent!.console('/api/kinds')).json()) as { kinds: Kind[]; total: number }
    return answer.total === 2 && answer.kinds[0]?.count === 3 && answer.kinds[0]?.incident ? answer.kinds : undefined
  })
  const [refusedKind, diskKind] = kinds
  expect(refusedKind?.template).toContain('Connection refused')
  expect(refusedKind?.new).toBe(true)
  expect(refusedKind?.hourly).toHaveLength(24)
  expect(refusedKind?.hourly[23]).toBe(3)
  // The incident link of the page opens it by this key: the incident table's whole key (`<rule>:<hash>`),
  // the id the incidents list shows, not a part of it.
  const key = refusedKind?.incident ?? ''
  expect(key).toMatch(/^new-errors:[0-9a-f]+$/)
  const listed = (await (await agent.console('/api/incidents')).json()) as { incidents: { id: string }[] }
  expect(listed.incidents.map((i) => i.id)).toContain(key)
  const opened = await agent.console(`/api/incidents/${encodeURIComponent(key)}`)
  expect(opened.status).toBe(200)
  const { incident } = (await opened.json()) as { incident: { id: string; rule: string } }
  expect(incident).toMatchObject({ id: key, rule: 'new-errors' })
  expect(diskKind?.count).toBe(1)

  let stdout = ''
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stdout += t) },
    signal: new AbortController().signal,
  }
  const args = { files: [], config: ws.config, url: undefined, tokenFile: undefined, json: true }
  const code = await kindsCommand({ ...args, format: undefined, level: 'error', perLine: false, live: true }, io, {})
  expect(code, stdout).toBe(0)
  expect((JSON.parse(stdout) as Kind[]).map((k) => k.id)).toEqual([refusedKind?.id, diskKind?.id])

  const muted = await agent.console('/api/silences', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ matchers: { kind: refusedKind?.id }, duration: '1h' }),
  })
  expect(muted.status).toBe(201)
})
