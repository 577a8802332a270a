// Every state file the agent replaces is replaced durably: the built agent runs under `strace -f`
// through alerts, a missed-call acknowledgement, a run-time silence and compactions (the outbox's at
// start, the incident state's and the timeline's forced by seeding files far larger than their
// state), and every rename over a file in state_dir must come after an fsync of the new file (made
// after its last write) and be followed by an fsync of its directory before that file is replaced
// again. Skipped, saying so, where strace is missing (CI installs it).
import '../../helpers/needs-build'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  agentBin,
  createWorkspace,
  messagingYaml,
  recordsWhen,
  startSandboxProcess,
  type SandboxProcess,
  type Workspace,
} from '../daemon/helpers'
import { durabilityProblems, parseStrace, type FileEvent } from './strace-events'
import { pollUntil } from '../../helpers/poll-until'

const ASHA = '919800000001'
const hasStrace = spawnSync('strace', ['-V']).error === undefined
if (!hasStrace)
  console.warn('\n*** SKIPPED durable-renames: strace is not installed; state-file fsyncs are NOT checked ***\n')

function config(ws: Workspace, sandbox: SandboxProcess): string {
  return `${messagingYaml(sandbox.api)}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
    start_at: beginning
people:
  asha: { phone: "${ASHA}" }
channels:
  oncall-sms: { type: sms, people: [asha] }
acknowledge:
  missed_call_number: "15550199999"
  poll_interval: 1s
rules:
  - name: db
    notify: [oncall-sms]
    incident: true
metrics: { listen: 127.0.0.1:0 }
`
}

/** Journals holding far more lines than their state: the agent compacts both at start. */
function seedOversizedJournals(state: string): void {
  mkdirSync(state, { recursive: true })
  writeFileSync(join(state, 'incidents.json'), '["d","gone"]\n'.repeat(1500))
  const entry = JSON.stringify(['old', { at: 1, kind: 'firing', text: 'firing' }])
  writeFileSync(join(state, 'timeline.jsonl'), `${entry}\n`.repeat(1500))
}

interface TracedAgent {
  child: ChildProcess
  metricsUrl: string
  exited: Promise<unknown>
}

async function startTracedAgent(ws: Workspace, trace: string): Promise<TracedAgent> {
  const calls = 'openat,open,creat,rename,renameat,renameat2,fsync,fdatasync,write,pwrite64,writev,pwritev'
  const args = ['-f', '-y', '-qq', '-s', '0', '-o', trace, '-e', `trace=${calls}`]
  const child = spawn('strace', [...args, process.execPath, agentBin, 'run', '--config', ws.config], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = once(child, 'exit')
  const metricsUrl = await pollUntil(
    `the agent's metrics address in its output:\n${output}`,
    () => /metrics: (\S+)\/metrics/.exec(output)?.[1],
    { timeoutMs: 60_000 },
  )
  return { child, metricsUrl, exited }
}

async function post(url: string, body: unknown, token?: string): Promise<number> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  return (await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) })).status
}

describe.skipIf(!hasStrace)('state files under strace', () => {
  let ws: Workspace
  let sandbox: SandboxProcess
  let agent: TracedAgent | undefined
  let events: FileEvent[] = []

  beforeAll(async () => {
    ws = createWorkspace()
    sandbox = await startSandboxProcess()
    ws.writeConfig(config(ws, sandbox))
    mkdirSync(ws.logs, { recursive: true })
    seedOversizedJournals(ws.state)
    const trace = join(ws.dir, 'strace.out')
    agent = await startTracedAgent(ws, trace)
    const line = { level: 50, msg: 'query failed', err: { type: 'ConnectionError', message: 'refused' } }
    appendFileSync(join(ws.logs, 'app.log'), `${JSON.stringify(line)}\n`)
    await recordsWhen(sandbox.api.baseUrl, 'the SMS page', (all) => all.some((r) => r.kind === 'sms'), 60_000)
    expect(await post(`${sandbox.api.baseUrl}/_sandbox/missed-calls`, { caller: `+${ASHA}` })).toBe(201)
    const running = agent
    const token = readFileSync(join(ws.state, 'console.token'), 'utf8').trim()
    const authorization = `Bearer ${token}`
    await pollUntil(
      'the incident acknowledged',
      async () => {
        const answer = await fetch(`${running.metricsUrl}/api/incidents`, { headers: { authorization } })
        const body = (await answer.json()) as {
          incidents: { state: string }[]
        }
        return body.incidents.some((i) => i.state === 'acknowledged') ? true : undefined
      },
      { timeoutMs: 60_000 },
    )
    const silence = { matchers: { rule: 'db' }, duration: '1h' }
    expect(await post(`${running.metricsUrl}/api/silences`, silence, token)).toBe(201)
    // A graceful stop of the agent (strace's child): strace ends with it, the trace written out.
    const { pid } = JSON.parse(readFileSync(join(ws.state, 'console.json'), 'utf8')) as { pid: number }
    process.kill(pid, 'SIGTERM')
    await running.exited
    agent = undefined
    events = parseStrace(readFileSync(trace, 'utf8'))
  }, 180_000)

  afterAll(async () => {
    // Killing strace detaches it; the agent goes with its process group.
    if (agent?.child.pid !== undefined) process.kill(-agent.child.pid, 'SIGKILL')
    await agent?.exited
    await sandbox?.close()
    ws?.remove()
  })

  it('renamed each kind of state file at least once (the check below is not vacuous)', () => {
    const renamed = new Set(events.flatMap((e) => (e.kind === 'rename' && e.to.startsWith(ws.state) ? [e.to] : [])))
    const names = [...renamed].map((file) => file.slice(ws.state.length + 1))
    for (const expected of [
      'incidents.json',
      'timeline.jsonl',
      'incident-leads.json',
      'missed-calls.json',
      'silences.json',
    ])
      expect(names).toContain(expected)
    expect(names.some((name) => name.startsWith('checkpoints/'))).toBe(true)
    expect(names.some((name) => name.startsWith('outbox'))).toBe(true)
  })

  it('fsyncs the new file before each rename over a state file, and its directory after', () => {
    expect(durabilityProblems(events, ws.state)).toEqual([])
  })
})
