import { describe, expect, it } from 'vitest'
import type { IncidentSnapshot } from '../../../alerts'
import { digestOf, type KindEntry } from '../../../alerts/kinds'
import { formatProblem, parseAgentConfig, type AgentConfig } from '../../../agent/config'
import { digestIncidentsOf } from '../../../agent/daemon/digest-incidents'
import { DIGEST_RULE, digestDeliveries } from '../../../agent/daemon/digest-messages'
import type { TimelineEntry } from '../../../agent/incidents/incident-timeline'
import { DIGEST_DAY, HOUR_MS as H, kindEntry } from '../../helpers/digest-fixtures'

const { from: FROM, to: TO, view } = DIGEST_DAY

function config(channels: string): AgentConfig {
  const yaml = `sources: [{ name: app, paths: [/tmp/none/*.log] }]\nchannels:\n${channels}`
  const result = parseAgentConfig(yaml, 'agent.yaml', { env: {}, cwd: '/tmp' })
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  return result.config
}

const channels = config(`  mail: { type: mail, from: logx@example.com, to: ops@example.com }
  text-mail: { type: mail, from: logx@example.com, to: ops@example.com, format: text }
  sms: { type: sms, numbers: [919800000001], max_length: 70 }
  chat: { type: chat, numbers: ["+919800000001"], template_id: 7, variables: ["{{status}}", "{{title}} ({{count}})"] }
  bare-chat: { type: chat, numbers: ["+919800000001"], template_id: 8 }
  voice: { type: voice, receivers: [{ label: ops, number: "919800000001" }], audio: { firing: [a.mp3] } }
`).channels

const kind = (id: string, template: string, extra: Partial<KindEntry> = {}): KindEntry =>
  kindEntry(id, template, { count: 4, hourly: [[FROM + H, 4]], ...extra })

const digest = digestOf([kind('a', 'login failed for key sk-SECRET-123 <*>')], [], { from: FROM, to: TO })
const deliver = (notify: string[], secrets: string[] = []) =>
  digestDeliveries(digest, view, { notify, channels, secrets })

describe('digestDeliveries', () => {
  it('rule 1: a mail channel gets the subject, the HTML and the text', () => {
    const [mail] = deliver(['mail'])
    expect(mail?.channelType).toBe('mail')
    expect(mail?.message).toMatchObject({
      type: 'mail',
      subject: expect.stringMatching(/^logx digest on web-1: 1 new kind/),
      html: expect.stringContaining('data-section="new"'),
      text: expect.stringContaining('New kinds (1):'),
    })
  })

  it('rule 2: an sms channel gets the short variant within its max_length', () => {
    const [sms] = deliver(['sms'])
    expect(sms?.message.type === 'sms' && sms.message.text).toHaveLength(70)
  })

  it("rule 3: a chat channel's variables are rendered with the short variant; without variables, one", () => {
    const [chat, bare] = deliver(['chat', 'bare-chat'])
    expect(chat?.message).toMatchObject({
      type: 'chat',
      variables: ['DIGEST', expect.stringMatching(/^logx digest to 2026-12-02 09:00: 4 events.* \(4\)$/)],
    })
    expect(bare?.message.type === 'chat' && bare.message.variables).toHaveLength(1)
  })

  it('rule 4: a channel unknown or a voice channel gets nothing', () => {
    expect(deliver(['gone', 'voice']).map((d) => d.notice.channel)).toEqual([])
  })

  it('rule 5: the known secrets are cut out of every text', () => {
    const [mail, sms] = deliver(['mail', 'sms'], ['sk-SECRET-123'])
    const texts = JSON.stringify([mail?.message, sms?.message])
    expect(texts).not.toContain('sk-SECRET-123')
  })

  it("rule 6: the incident is keyed by the period's end and the channel, a digest notice of its own rule", () => {
    const [mail, textMail] = deliver(['mail', 'text-mail'])
    expect(mail?.notice).toMatchObject({ kind: 'digest', channel: 'mail', at: TO })
    expect(mail?.notice.incident.key).toBe(`${DIGEST_RULE}:mail:${TO}`)
    expect(textMail?.notice.incident.key).toBe(`${DIGEST_RULE}:text-mail:${TO}`)
  })
})

describe('digestDeliveries to whoever is on call', () => {
  const onCall = config(`  oncall-mail: { type: mail, from: logx@example.com, oncall: ops }
people:
  asha: { email: asha@example.com }
  ravi: { email: ravi@example.com }
schedules:
  ops:
    time_zone: Asia/Kolkata
    layers:
      - { name: days, users: [asha, ravi], rotation: daily, handoff: "09:00", start: "2026-12-01" }
`)

  it('rule 7: a channel on call sends to the person on call at the digest time; none on call: nothing', () => {
    const routing = { notify: ['oncall-mail'], channels: onCall.channels, schedules: onCall.schedules, secrets: [] }
    // 09:00 on 2 December: the second day of the rotation, ravi's.
    const deliveries = digestDeliveries(digest, view, routing)
    expect(deliveries.map((d) => [d.notice.channel, d.notice.people])).toEqual([['oncall-mail', ['ravi']]])
    // A schedule that says nobody (here: not known any more): the channel gets nothing.
    expect(digestDeliveries(digest, view, { ...routing, schedules: [] })).toEqual([])
  })
})

describe('digestIncidentsOf', () => {
  const open = {
    key: 'errors:1',
    rule: 'errors',
    title: 'db down',
    status: 'acknowledged',
    ack: { by: 'asha', via: 'console', at: FROM + 3 * H },
    firstSeen: FROM + H,
    lastSeen: FROM + 4 * H,
    count: 9,
  } as unknown as IncidentSnapshot

  it('rule 1: an open incident is told as the engine holds it, with its acknowledgement', () => {
    expect(digestIncidentsOf([open], [], () => [], FROM)).toEqual([
      {
        key: 'errors:1',
        rule: 'errors',
        title: 'db down',
        status: 'acknowledged',
        firstSeen: FROM + H,
        lastSeen: FROM + 4 * H,
        count: 9,
        ack: { by: 'asha', at: FROM + 3 * H },
      },
    ])
  })

  it('rule 2: an ended incident a kind of the period opened is told from its timeline, resolved', () => {
    const history: TimelineEntry[] = [
      { at: FROM + H, kind: 'firing', text: 'firing' },
      { at: FROM + 2 * H, kind: 'acknowledged', text: 'acknowledged by ravi', by: 'ravi' },
      { at: FROM + 5 * H, kind: 'resolved', text: 'resolved' },
    ]
    const opened = kind('k', 'Connection refused to <*>', { incident: 'kinds-new:42' })
    const told = digestIncidentsOf([], [opened], (key) => (key === 'kinds-new:42' ? history : []), FROM)
    expect(told).toEqual([
      {
        key: 'kinds-new:42',
        rule: 'kinds-new',
        title: 'Connection refused to <*>',
        status: 'resolved',
        firstSeen: FROM + H,
        lastSeen: FROM + 5 * H,
        count: 4,
        ack: { by: 'ravi', at: FROM + 2 * H },
      },
    ])
  })

  it('rule 3: one without a timeline is not told, and none twice', () => {
    const kinds = [
      kind('a', 'x', { incident: 'errors:1' }),
      kind('b', 'y', { incident: 'lost:7' }),
      kind('c', 'z', { incident: 'old:1', lastSeen: FROM - H }),
    ]
    const history = (): TimelineEntry[] => [{ at: FROM, kind: 'firing', text: 'firing' }]
    expect(
      digestIncidentsOf([open], kinds, (key) => (key === 'lost:7' ? [] : history()), FROM).map((i) => i.key),
    ).toEqual(['errors:1'])
  })
})
