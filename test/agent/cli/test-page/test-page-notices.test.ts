// One test per rule of agent/daemon/test-page-notices.ts (what a test page is, as the alert path
// carries it), and the test flag its lead gets (agent/delivery/record).
import { describe, expect, it } from 'vitest'
import { createAlertEngine } from '../../../../alerts'
import { parseAgentConfig } from '../../../../agent/config/load/load-config'
import type { AgentConfig } from '../../../../agent/config/types'
import { engineOptionsOfSetup, setupOfConfig } from '../../../../agent/delivery/alert-setup'
import { incidentEvent } from '../../../../agent/delivery/record/incident-event'
import { newLead } from '../../../../agent/delivery/record/lead-rules'
import {
  testIncident,
  testPageDeliveries,
  testPageText,
  testTargetOf,
} from '../../../../agent/daemon/test-page-notices'
import { channelStatusOf } from '../../../../agent/daemon/test-page-records'

function config(): AgentConfig {
  const result = parseAgentConfig(
    `state_dir: /tmp/never-written
sources: [{ name: app, paths: [/tmp/never/*.log] }]
people:
  asha: { phone: "919800000001", email: asha@example.com }
  ravi: { email: ravi@example.com }
  kiran: { chat: "+919800000007" }
  oncall-sms: { phone: "919800000009" }
channels:
  oncall-sms: { type: sms, people: [asha] }
  ops-mail: { type: mail, from: alerts@example.com, to: [ops@example.com] }
  oncall-voice: { type: voice, people: [asha], audio: [alert.mp3] }
rules:
  - { name: errors, notify: oncall-sms, incident: true }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config
}

const TEXT = testPageText('web-1', '15550199999')

function deliveriesFor(target: string) {
  const found = testTargetOf(config(), target)
  if (!found.ok) throw new Error(found.error)
  const engine = createAlertEngine(engineOptionsOfSetup(setupOfConfig(config(), []), 0))
  const parts = {
    incident: testIncident('abc', TEXT, 'web-1', 5),
    channels: engine.channels,
    person: found.person,
    at: 5,
  }
  return testPageDeliveries(
    parts,
    found.channels.map((c) => c.name),
  )
}

describe('test page notices', () => {
  it('rule 1: a person is paged on each channel with an address of theirs, and only them', () => {
    const found = testTargetOf(config(), 'asha')
    expect(found.ok && found.channels.map((c) => c.name)).toEqual(['oncall-sms', 'ops-mail', 'oncall-voice'])
    const ravi = testTargetOf(config(), 'ravi')
    expect(ravi.ok && ravi.channels.map((c) => c.name)).toEqual(['ops-mail'])
    const pages = deliveriesFor('asha').filter((d) => d.channelType !== 'incident')
    expect(pages.map((d) => d.notice.people)).toEqual([['asha'], ['asha'], ['asha']])
  })

  it('rule 2: a channel named is paged to its own recipients', () => {
    const found = testTargetOf(config(), 'ops-mail')
    expect(found).toMatchObject({ ok: true, person: undefined })
    const pages = deliveriesFor('ops-mail').filter((d) => d.channelType !== 'incident')
    expect(pages).toHaveLength(1)
    expect(pages[0]?.notice.people).toBeUndefined()
  })

  it('rule 3: a name that is a person and a channel is the person', () => {
    expect(testTargetOf(config(), 'oncall-sms')).toMatchObject({ ok: true, person: 'oncall-sms' })
  })

  it('rule 4: an unknown name, or a person no channel reaches, is refused with what exists', () => {
    expect(testTargetOf(config(), 'zed')).toEqual({
      ok: false,
      error:
        'zed: no such person or channel (people: asha, ravi, kiran, oncall-sms; ' +
        'channels: oncall-sms, ops-mail, oncall-voice)',
    })
    expect(testTargetOf(config(), 'kiran')).toMatchObject({ ok: false })
  })

  it('rule 5: texts carry the test line itself; voice keeps its audio', () => {
    const byType = new Map(deliveriesFor('asha').map((d) => [d.channelType, d.message]))
    expect(byType.get('sms')).toEqual({ type: 'sms', text: TEXT })
    expect(byType.get('mail')).toMatchObject({ type: 'mail', subject: TEXT, text: TEXT })
    expect(byType.get('voice')).toMatchObject({ type: 'voice', audioFiles: ['alert.mp3'] })
    expect(TEXT).toBe('TEST PAGE from logx-agent on web-1: reply by missed call to 15550199999 to confirm')
  })

  it('rule 6: the incident is flagged as a test, and so is its lead', () => {
    const opening = deliveriesFor('asha').find((d) => d.channelType === 'incident')
    expect(opening?.notice.incident.rule).toBe('logx-test-page')
    if (opening === undefined) throw new Error('no recording delivery')
    const event = incidentEvent(opening, { type: 'NOTE', title: 'opened', notes: '' }, undefined)
    expect(event.test).toBe(true)
    expect(newLead(event).otherFields).toMatchObject({ test: 'true', host: 'web-1' })
  })

  it('an API record status: delivered and failed are final, anything else (or nothing) counts as sent', () => {
    expect(channelStatusOf('delivered')).toBe('delivered')
    expect(channelStatusOf('failed')).toBe('failed')
    expect(channelStatusOf('queued')).toBe('sent')
    expect(channelStatusOf(undefined)).toBe('sent')
  })
})
