// The agent (dist/) with a journald source on a real journal file it follows while entries are
// appended: an error of the unit pages once; an info entry and another unit's error do not;
// after SIGKILL and a restart, the error written while it was down pages once and nothing read
// before the crash is read again (the cursor was checkpointed). /health and /metrics count it.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createWorkspace,
  metric,
  messagingYaml,
  recordsWhen,
  smsTexts,
  spawnAgent,
  startAgentProcess,
  startSandboxProcess,
  type RunningAgent,
  type SandboxProcess,
  type Workspace,
} from '../daemon/helpers'
import { appendEntries, lastCursor, serviceEntry, skipWithoutJournalTools } from './journal-file'
import { pollUntil } from '../../helpers/poll-until'

const skip = skipWithoutJournalTools('journald agent test')
const countOf = (texts: string[], text: string): number => texts.filter((t) => t.includes(text)).length

describe.skipIf(skip)('logx-agent with a journald source', () => {
  let ws: Workspace
  let sandbox: SandboxProcess
  let agent: RunningAgent | undefined
  let journal: string

  const savedCursor = (): string | undefined => {
    try {
      return (JSON.parse(readFileSync(join(ws.state, 'checkpoints', 'system.cursor'), 'utf8')) as { cursor: string })
        .cursor
    } catch {
      return undefined
    }
  }

  beforeAll(async () => {
    ws = createWorkspace()
    mkdirSync(join(ws.dir, 'journal'))
    journal = join(ws.dir, 'journal', 'remote.journal')
    sandbox = await startSandboxProcess()
    ws.writeConfig(`${messagingYaml(sandbox.api)}state_dir: ${ws.state}
sources:
  - name: system
    type: journald
    units: [nginx.service]
    journal_files: [${join(ws.dir, 'journal')}/*.journal]
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: nginx errors
    source: system
    level: error
    notify: oncall-sms
metrics: { listen: 127.0.0.1:0 }
`)
    // Stored before the first start: start_at end (the default) leaves it unread.
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'stale failure before the agent started')])
  })

  afterAll(async () => {
    await agent?.kill('SIGKILL')
    await sandbox?.close()
    ws?.remove()
  })

  it("pages an error entry of the unit once, and not its info entries or another unit's errors", async () => {
    agent = await startAgentProcess(ws.config)
    appendEntries(journal, [
      serviceEntry('nginx.service', 3, 'upstream timed out while reading response header'),
      serviceEntry('nginx.service', 6, 'GET /healthz 200'),
      serviceEntry('cron.service', 3, 'cron job exploded'),
    ])
    const all = await recordsWhen(
      sandbox.api.baseUrl,
      'the nginx error paged',
      (r) => countOf(smsTexts(r), 'upstream timed out') === 1,
    )
    // The cursor of the info entry (the last of the unit) is on disk: every entry was handled.
    await pollUntil('the cursor after the info entry', () =>
      savedCursor() === lastCursor(journal, ['--unit=nginx.service']) ? true : undefined,
    )
    await pollUntil('an empty outbox', async () =>
      (await metric(agent!.metricsUrl, 'logx_agent_outbox_depth')) === 0 ? true : undefined,
    )
    const texts = smsTexts(all)
    expect(texts).toHaveLength(1)
    expect(texts[0]).toContain('FIRING')
    expect(countOf(texts, 'stale failure')).toBe(0)

    const health = await fetch(`${agent.metricsUrl}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ ok: true, sources: 1, failed: [] })
    expect(await metric(agent.metricsUrl, 'logx_agent_lines_read_total')).toBe(2)
    expect(await metric(agent.metricsUrl, 'logx_agent_files_watched')).toBe(1)
  })

  it('after SIGKILL and a restart, pages the error written while it was down once, and reads nothing twice', async () => {
    await agent?.kill('SIGKILL')
    agent = undefined
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'connect() failed to the payments backend')])
    agent = await startAgentProcess(ws.config)
    const all = await recordsWhen(
      sandbox.api.baseUrl,
      'the error written while down paged',
      (r) => countOf(smsTexts(r), 'payments backend') === 1,
    )
    await pollUntil('the cursor after it', () =>
      savedCursor() === lastCursor(journal, ['--unit=nginx.service']) ? true : undefined,
    )
    await pollUntil('an empty outbox', async () =>
      (await metric(agent!.metricsUrl, 'logx_agent_outbox_depth')) === 0 ? true : undefined,
    )
    const texts = smsTexts(all)
    expect(countOf(texts, 'upstream timed out')).toBe(1)
    expect(countOf(texts, 'payments backend')).toBe(1)
    expect(texts).toHaveLength(2)
    // Resumed after the checkpointed cursor: only the one new entry of the unit was read.
    expect(await metric(agent.metricsUrl, 'logx_agent_lines_read_total')).toBe(1)
    expect(await agent.kill('SIGTERM')).toBe(0)
    agent = undefined
  })

  it('does not start without journalctl, and says which source needs it', async () => {
    const other = createWorkspace()
    try {
      other.writeConfig(`${messagingYaml()}state_dir: ${other.state}
sources:
  - { name: system, type: journald, units: nginx.service }
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
`)
      const run = spawnAgent(['run', '--config', other.config], { env: { PATH: join(other.dir, 'no-bin') } })
      expect(await run.exited).toBe(1)
      expect(run.errors()).toContain('logx-agent: sources system: cannot run journalctl (ENOENT)')
    } finally {
      other.remove()
    }
  })
})
