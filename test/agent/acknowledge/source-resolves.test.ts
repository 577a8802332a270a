// One test per rule of agent/acknowledge/source-resolves.ts, through the incident actions on a real
// pipeline (a YAML config, the incident state in a real file, a dispatcher that keeps what it is handed).
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { Delivery } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import { toAlertLine } from '../../../agent/events/alert-line'
import { createAlertPipeline } from '../../../agent/delivery/alert-pipeline'
import { setupOfConfig } from '../../../agent/delivery/alert-setup'
import { createRecordingDispatcher } from '../delivery/recording-dispatcher'
import { createIncidentActions } from '../../../agent/acknowledge/incident-actions'
import type { PeopleAction } from '../../../agent/acknowledge/types'
import { createIncidentState } from '../../../agent/incidents/incident-state'
import { createRuntimeSilences } from '../../../agent/incidents/runtime-silences'
import { tempDir } from '../../helpers/temp-dir'

function start(dir: string) {
  const parsed = parseAgentConfig(
    `state_dir: ${dir}
sources: [{ name: app, paths: [${dir}/*.log] }]
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - { name: errors, level: error, notify: [oncall-sms] }
`,
    'agent.yaml',
  )
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems))
  const sent: Delivery[] = []
  const log = { info() {}, warn() {}, error() {} }
  const state = createIncidentState(join(dir, 'incidents.json'))
  const silences = createRuntimeSilences(join(dir, 'silences.json'))
  const dispatcher = createRecordingDispatcher(sent)
  const pipeline = createAlertPipeline({ setup: setupOfConfig(parsed.config, []), state, dispatcher, log, now: 0 })
  const actions = createIncidentActions({ pipeline, state, silences, log })
  const shared: PeopleAction[] = []
  actions.onAction((action) => shared.push(action))
  pipeline.ingest(toAlertLine(JSON.stringify({ level: 50, msg: 'disk full' }), 'json', 'app').line, 1000)
  const key = pipeline.incidents()[0]?.key as string
  return { pipeline, actions, sent, shared, key }
}

const resolvedNotices = (sent: readonly Delivery[]): number => sent.filter((d) => d.notice.kind === 'resolved').length

describe('resolves by an alert sender', () => {
  it('1. here: the open incident resolves with no actor, its resolved notice handed to the outbox', () => {
    const run = start(tempDir('source-resolves'))
    expect(run.actions.sourceResolved({ key: run.key, notify: true, endedAt: 1500, at: 2000 }, 2000)).toBe(true)
    expect(run.pipeline.incident(run.key)).toBeUndefined()
    expect(resolvedNotices(run.sent)).toBeGreaterThan(0)
  })

  it('2. whether or not it was open here, it is remembered and shared with the fleet', () => {
    const run = start(tempDir('source-resolves'))
    const resolve = { key: 'not-here', notify: false, endedAt: 1500, at: 2000 }
    expect(run.actions.sourceResolved(resolve, 2000)).toBe(false)
    expect(run.shared).toEqual([{ type: 'source-resolve', ...resolve }])
    expect(run.actions.rememberedResolves()).toBe(1)
    expect(run.actions.staleFiring('not-here', 1400, 2100)).toBe(true)
    expect(run.actions.staleFiring('not-here', 1600, 2100)).toBe(false)
  })

  it('3. from another agent: resolved here with its notice, remembered, and not shared again', () => {
    const run = start(tempDir('source-resolves'))
    run.actions.applyShared({ type: 'source-resolve', key: run.key, notify: true, endedAt: 1500, at: 2000 }, 2000)
    expect(run.pipeline.incident(run.key)).toBeUndefined()
    expect(resolvedNotices(run.sent)).toBeGreaterThan(0)
    expect(run.shared).toEqual([])
    expect(run.actions.staleFiring(run.key, 1000, 2100)).toBe(true)
  })
})
