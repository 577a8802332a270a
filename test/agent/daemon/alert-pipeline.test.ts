// The pipeline's promises across engines (a restart or a reload builds a fresh one), with a fake
// dispatcher and a fake clock: an incident that paged is not paged again within repeat_interval,
// and one that was waiting out group_wait still fires.
import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Delivery } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load-config'
import type { AgentConfig } from '../../../agent/config/types'
import { toAlertLine } from '../../../agent/daemon/alert-line'
import { createAlertPipeline, type AlertPipeline } from '../../../agent/daemon/alert-pipeline'
import type { Dispatcher } from '../../../agent/daemon/dispatcher'
import { createIncidentState } from '../../../agent/daemon/incident-state'
import { createAgentLogger } from '../../../agent/daemon/logger'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function setup(rules: string): { config: AgentConfig; stateDir: string } {
  const stateDir = mkdtempSync(join(tmpdir(), 'logx-pipeline-'))
  dirs.push(stateDir)
  const result = parseAgentConfig(`state_dir: ${stateDir}
sources: [{ name: app, paths: [${stateDir}/*.log] }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
rules:
${rules}`, 'agent.yaml')
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return { config: result.config, stateDir }
}

function start(config: AgentConfig, stateDir: string, now: number): { pipeline: AlertPipeline; sent: Delivery[] } {
  const sent: Delivery[] = []
  const dispatcher: Dispatcher = {
    dispatch: (deliveries) => void sent.push(...deliveries),
    setChannels() {},
    closeLead() {},
    stats: () => ({ sent: {}, failed: {}, retried: 0, dead: 0, depth: 0 }),
    drain: async () => ({ drained: true, pending: 0 }),
    close: async () => {},
  }
  const log = createAgentLogger({ level: 'silent', destination: { write: () => true } })
  return { pipeline: createAlertPipeline({ config, state: createIncidentState(stateDir), dispatcher, log, secrets: [], now }), sent }
}

const line = (msg: string) => toAlertLine(JSON.stringify({ level: 50, msg }), 'json', 'app').line
const kinds = (sent: Delivery[]) => sent.map((d) => `${d.notice.kind} ${d.notice.incident.title}`)

describe('alert pipeline across engines', () => {
  it('does not page again an incident that paged, until its repeat_interval', () => {
    const { config, stateDir } = setup('  - { name: errors, repeat_interval: 30m }\n')
    const first = start(config, stateDir, 0)
    first.pipeline.ingest(line('db down'), 1000)
    expect(kinds(first.sent)).toEqual(['firing db down'])

    const second = start(config, stateDir, 2000)
    second.pipeline.ingest(line('db down'), 3000)
    second.pipeline.ingest(line('cache down'), 3000)
    expect(kinds(second.sent)).toEqual(['firing cache down'])
    expect(second.pipeline.stats().suppressedRepages).toBe(1)

    const third = start(config, stateDir, 0)
    third.pipeline.ingest(line('db down'), 1000 + 30 * 60_000)
    expect(kinds(third.sent)).toEqual(['firing db down'])
  })

  it('fires after a restart an incident that was waiting out group_wait', () => {
    const { config, stateDir } = setup('  - { name: errors, group_wait: 10s }\n')
    const first = start(config, stateDir, 0)
    first.pipeline.ingest(line('disk full'), 1000)
    first.pipeline.tick(5000)
    expect(first.sent).toEqual([])

    const second = start(config, stateDir, 6000)
    second.pipeline.tick(15_000)
    expect(second.sent).toEqual([])
    second.pipeline.tick(16_000)
    expect(kinds(second.sent)).toEqual(['firing disk full'])
    // Fired once: a third engine has nothing left to replay.
    const third = start(config, stateDir, 17_000)
    third.pipeline.tick(60_000)
    expect(third.sent).toEqual([])
  })

  it('forgets a paged incident once it has been quiet for resolve_after', () => {
    const { config, stateDir } = setup('  - { name: errors, resolve_after: 1m, repeat_interval: 1h }\n')
    const first = start(config, stateDir, 0)
    first.pipeline.ingest(line('queue stuck'), 1000)
    const second = start(config, stateDir, 2000)
    second.pipeline.tick(62_000)
    second.pipeline.ingest(line('queue stuck'), 62_000)
    expect(kinds(second.sent)).toEqual(['firing queue stuck'])
  })
})
