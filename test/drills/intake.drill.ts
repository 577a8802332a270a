// Intake SIGKILL: error events POSTed to a real agent's `type: http` source, the agent killed with
// SIGKILL the moment each 2xx arrives, then started again; the sandbox runs in its own process and
// outlives every agent. The intake answers 2xx only once the events are in the outbox's journal
// (fsynced), so each accepted event's page must arrive after the restarts. events = events accepted
// (answered 2xx); lost = accepted events without a page (must be 0); duplicated = pages beyond one.
import { expect, test } from 'vitest'
import {
  agentConfig,
  createWorkspace,
  records,
  recordsWhen,
  startAgentProcess,
  startSandboxProcess,
} from '../agent/daemon/helpers'
import type { RunningAgent, SandboxProcess, Workspace } from '../agent/daemon/helpers'
import { freePort } from '../helpers/free-port'
import { recordDrill } from './lib/report'

const ROUNDS = 8
const EVENTS_PER_POST = 3

function config(ws: Workspace, sandbox: SandboxProcess, port: number): string {
  return agentConfig(ws, {
    api: sandbox.api,
    sources: `  - { name: api, type: http, listen: "127.0.0.1:${port}" }`,
    rules: '  - { name: errors, level: error, group_by: [msg], notify: oncall-sms }',
  })
}

/** A page, not the RESOLVED notice an incident sends when it goes quiet (it names the event too). */
const isPage = (sms: string): boolean => !sms.includes('RESOLVED')

const ids = (round: number): string[] => Array.from({ length: EVENTS_PER_POST }, (_, i) => `intake-drill-${round}-${i}`)

test('intake SIGKILL: every event answered 2xx pages after a SIGKILL right after the answer', async ({ task }) => {
  const started = Date.now()
  const ws = createWorkspace()
  let sandbox: SandboxProcess | undefined
  let agent: RunningAgent | undefined
  const accepted: string[] = []
  let lost = -1
  let duplicated = 0
  try {
    sandbox = await startSandboxProcess()
    const port = await freePort()
    ws.writeConfig(config(ws, sandbox, port))
    for (let round = 0; round < ROUNDS; round++) {
      agent = await startAgentProcess(ws.config)
      const body = ids(round)
        .map((id) => JSON.stringify({ level: 50, msg: id }))
        .join('\n')
      const response = await fetch(`http://127.0.0.1:${port}/ingest/api`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body,
      })
      // Killed before anything else happens: the answer is the only thing the drill waited for.
      await agent.kill('SIGKILL')
      if (response.ok) accepted.push(...ids(round))
    }
    agent = await startAgentProcess(ws.config)
    const baseUrl = sandbox.api.baseUrl
    const pagesOf = (all: Awaited<ReturnType<typeof records>>, id: string): number =>
      all.filter((r) => r.kind === 'sms' && isPage(String(r.record['sms'])) && String(r.record['sms']).includes(id))
        .length
    const all = await recordsWhen(baseUrl, 'a page for each accepted event', (got) =>
      accepted.every((id) => pagesOf(got, id) > 0),
    ).catch(async () => records(baseUrl))
    lost = accepted.filter((id) => pagesOf(all, id) === 0).length
    duplicated = accepted.reduce((extra, id) => extra + Math.max(0, pagesOf(all, id) - 1), 0)
    recordDrill(task, {
      drill: 'intake SIGKILL',
      events: accepted.length,
      unit: 'accepted events',
      lost,
      duplicated,
      timeMs: Date.now() - started,
      notes: `${ROUNDS} SIGKILLs, each right after a 2xx of ${EVENTS_PER_POST} events`,
    })
    expect(accepted).toHaveLength(ROUNDS * EVENTS_PER_POST)
    expect(lost).toBe(0)
  } finally {
    await agent?.kill('SIGTERM')
    await sandbox?.close()
    ws.remove()
  }
}, 300_000)
