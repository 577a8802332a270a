// What the CRM's lead of an incident shows when people change it (agent/delivery/record/incident-activities.ts):
// who acknowledged, un-acknowledged or resolved it, how and when. The deliveries are the recording
// channel's, from a real engine built from a YAML config, as the dispatcher gets them.
import { describe, expect, it } from 'vitest'
import { createAlertEngine, type Actor, type AlertEngine, type AckOutcome, type Delivery } from '../../../../alerts'
import { parseAgentConfig } from '../../../../agent/config/load/load-config'
import { engineOptionsOfSetup, setupOfConfig } from '../../../../agent/delivery/alert-setup'
import { incidentActivities } from '../../../../agent/delivery/record/incident-activities'

function engine(): { engine: AlertEngine; key: string } {
  const result = parseAgentConfig(
    `state_dir: /tmp/logx-activities-unused
sources: [{ name: app, paths: [/tmp/logx-activities-unused/*.log] }]
people:
  asha: { phone: "+919800000001" }
channels: { oncall-sms: { type: sms, people: [asha] } }
rules:
  - { name: errors, ack_timeout: 30m, incident: true }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const e = createAlertEngine(engineOptionsOfSetup(setupOfConfig(result.config, []), 0))
  e.ingest(JSON.stringify({ level: 50, msg: 'db down' }), 1000)
  const key = e.incidents()[0]?.key
  if (key === undefined) throw new Error('no incident')
  return { engine: e, key }
}

/** The recording channel's deliveries of a change. */
function recorded(outcome: AckOutcome): Delivery[] {
  if (!outcome.ok) throw new Error(outcome.reason)
  return outcome.deliveries.filter((d) => d.channelType === 'incident')
}

function activityOf(deliveries: Delivery[]) {
  expect(deliveries).toHaveLength(1)
  const [delivery] = deliveries
  if (delivery === undefined) throw new Error('no delivery')
  const activities = incidentActivities(delivery)
  expect(activities).toHaveLength(1)
  const [activity] = activities
  if (activity === undefined) throw new Error('no activity')
  return activity
}

const at = (ms: number) => new Date(ms).toISOString()

describe('acknowledged', () => {
  it('by missed call: the PHONECALL it was, titled with who', () => {
    const { engine: e, key } = engine()
    const actor: Actor = { by: 'asha', via: 'missed_call', detail: 'missed call from +919800000001' }
    const activity = activityOf(recorded(e.acknowledge(key, actor, 2000)))
    expect(activity.type).toBe('PHONECALL')
    expect(activity.title).toBe('Acknowledged by asha')
    expect(activity.notes.split('\n').slice(0, 2)).toEqual([
      'Acknowledged by asha',
      `by asha via missed call, missed call from +919800000001 at ${at(2000)}`,
    ])
  })

  it('by a missed call matched to the person (acknowledgeFor) the same', () => {
    const { engine: e } = engine()
    const { deliveries } = e.acknowledgeFor(
      'asha',
      { by: 'asha', via: 'missed_call', detail: 'missed call from 919800000001' },
      2000,
      false,
    )
    const activity = activityOf(deliveries.filter((d) => d.channelType === 'incident'))
    expect(activity).toMatchObject({ type: 'PHONECALL', title: 'Acknowledged by asha' })
  })

  it('from the console or the command line: a NOTE naming who and how', () => {
    const viaConsole = engine()
    const fromConsole = activityOf(
      recorded(viaConsole.engine.acknowledge(viaConsole.key, { by: 'ravi', via: 'console' }, 2000)),
    )
    expect(fromConsole.type).toBe('NOTE')
    expect(fromConsole.title).toBe('Acknowledged by ravi')
    expect(fromConsole.notes).toContain(`by ravi via the console at ${at(2000)}`)

    const viaCli = engine()
    const cli = activityOf(recorded(viaCli.engine.acknowledge(viaCli.key, { by: 'ravi', via: 'cli' }, 3000)))
    expect(cli).toMatchObject({ type: 'NOTE', title: 'Acknowledged by ravi' })
    expect(cli.notes).toContain(`by ravi via the command line at ${at(3000)}`)
  })
})

describe('no longer acknowledged', () => {
  it('by hand: a NOTE naming who', () => {
    const { engine: e, key } = engine()
    recorded(e.acknowledge(key, { by: 'asha', via: 'console' }, 2000))
    const activity = activityOf(recorded(e.unacknowledge(key, { by: 'ravi', via: 'cli' }, 3000)))
    expect(activity).toMatchObject({ type: 'NOTE', title: 'No longer acknowledged by ravi' })
    expect(activity.notes).toContain('via the command line')
  })

  it('when ack_timeout elapsed: says so, not a person', () => {
    const { engine: e, key } = engine()
    recorded(e.acknowledge(key, { by: 'asha', via: 'missed_call' }, 2000))
    const timedOut = e
      .tick(2000 + 30 * 60_000)
      .filter((d) => d.channelType === 'incident' && d.notice.kind === 'unacknowledged')
    const activity = activityOf(timedOut)
    expect(activity.type).toBe('NOTE')
    expect(activity.title).toBe('No longer acknowledged: ack_timeout elapsed')
    expect(activity.notes).toContain('ack_timeout elapsed at ')
    expect(activity.notes).not.toContain('by ack_timeout')
  })
})

describe('resolved by hand', () => {
  it('a NOTE naming who and how', () => {
    const { engine: e, key } = engine()
    const activity = activityOf(recorded(e.resolve(key, { by: 'asha', via: 'cli' }, 4000)))
    expect(activity).toMatchObject({ type: 'NOTE', title: 'Resolved by asha' })
    expect(activity.notes).toContain(`by asha via the command line at ${at(4000)}`)
  })
})

describe('what the changes leave alone', () => {
  it('a notice nobody acted on keeps its title; a message to a person is no activity of its own here', () => {
    const { engine: e } = engine()
    const opened = e.ingest(JSON.stringify({ level: 50, msg: 'cache down' }), 5000)
    const notes = opened.filter((d) => d.channelType === 'incident')
    expect(activityOf(notes)).toMatchObject({ type: 'NOTE', title: 'Incident opened' })
    const sms = opened.find((d) => d.channelType === 'sms')
    if (sms === undefined) throw new Error('no sms')
    expect(incidentActivities(sms)).toEqual([])
  })
})
