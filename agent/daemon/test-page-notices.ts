// A test page (`logx-agent test-page`, issue #33) as the alert path carries it: an incident of its
// own rule with a test flag, whose notices are rendered for the engine's channels and go the way of
// every notice (outbox, channel sender, CRM recorder). Pure: the host, the clock and the engine's
// channels are passed in. The rules:
// 1. A person is paged on every configured channel whose type has an address of theirs (sms and
//    voice: their phone; chat: their chat number, else their phone; mail: their e-mail), and only
//    them: the notice names them, so the channel's own recipients get nothing.
// 2. A channel is paged to its own recipients.
// 3. A name that is both a person and a channel is the person (a drill is for someone).
// 4. A name that is neither, or a person without an address any channel uses, is refused with what
//    exists.
// 5. Texts (sms, mail) carry the test line itself, whatever the channel's templates say: a test
//    page must never read like a real one. Chat and voice use their templates (a chat template's
//    variables, recorded audio) with the test title.
// 6. The incident's line carries `logx_test: true`: its lead on the CRM says `test: true`.
import type { Actor, Channel, Delivery, IncidentSnapshot, Notice } from '../../alerts'
import { renderMessage } from '../../alerts/render'
import type { AgentConfig, ChannelConfig, PersonConfig } from '../config/types'
import { INCIDENT_CHANNEL } from '../delivery/outbox-items'

/** The rule every test page's incident belongs to (no config rule may be named so: it has a colon-free dash name). */
export const TEST_RULE = 'logx-test-page'

export type TestTarget =
  { ok: true; person: string | undefined; channels: ChannelConfig[] } | { ok: false; error: string }

/** Rule 1: whether a channel of this type can reach the person. */
function reaches(channel: ChannelConfig, person: PersonConfig): boolean {
  switch (channel.type) {
    case 'sms':
    case 'voice':
      return person.phone !== undefined
    case 'chat':
      return person.chat !== undefined || person.phone !== undefined
    case 'mail':
      return person.email !== undefined
  }
}

/** Rules 1 to 4. */
export function testTargetOf(config: Pick<AgentConfig, 'people' | 'channels'>, name: string): TestTarget {
  const person = config.people.find((p) => p.name === name)
  if (person !== undefined) {
    const channels = config.channels.filter((c) => reaches(c, person))
    if (channels.length > 0) return { ok: true, person: person.name, channels }
    return { ok: false, error: `${name}: no channel of the config reaches them (give them a phone or an email)` }
  }
  const channel = config.channels.find((c) => c.name === name)
  if (channel !== undefined) return { ok: true, person: undefined, channels: [channel] }
  const people = config.people.map((p) => p.name).join(', ') || '(none)'
  const channels = config.channels.map((c) => c.name).join(', ') || '(none)'
  return { ok: false, error: `${name}: no such person or channel (people: ${people}; channels: ${channels})` }
}

export function testPageText(host: string, ackNumber: string | undefined): string {
  const reply = ackNumber === undefined ? 'reply by missed call' : `reply by missed call to ${ackNumber}`
  return `TEST PAGE from logx-agent on ${host}: ${reply} to confirm`
}

/** Rule 6: the incident of a test page, firing from `at`. */
export function testIncident(id: string, text: string, host: string, at: number): IncidentSnapshot {
  const record = { msg: text, level: 50, hostname: host, logx_test: true }
  const line = { raw: text, record, level: 50, msg: text, source: 'logx-agent test-page', json: false }
  return {
    key: `${TEST_RULE}:${id}`,
    rule: TEST_RULE,
    title: text,
    parts: ['test page', id],
    status: 'firing',
    ack: undefined,
    firstSeen: at,
    lastSeen: at,
    firedAt: at,
    notifiedAt: at,
    pagedTo: {},
    count: 1,
    step: 0,
    firstLine: line,
    lastLine: line,
  }
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Rule 5: the message of one channel. */
function messageFor(channel: Channel, notice: Notice, text: string): Delivery['message'] {
  switch (channel.type) {
    case 'sms':
      return { type: 'sms', text }
    case 'mail':
      return { type: 'mail', subject: text, text, html: `<p>${escapeHtml(text)}</p>` }
    default:
      return renderMessage(channel, notice)
  }
}

export interface TestNotices {
  incident: IncidentSnapshot
  /** The engine's channels (the config's, and the recording channel). */
  channels: readonly Channel[]
  person: string | undefined
  at: number
}

/** The page: one delivery per channel of the target, and the recording channel's (the lead's opening). */
export function testPageDeliveries(parts: TestNotices, targets: readonly string[]): Delivery[] {
  const { incident, person, at } = parts
  const deliveries: Delivery[] = []
  for (const name of [...targets, INCIDENT_CHANNEL]) {
    const channel = parts.channels.find((c) => c.name === name)
    if (channel === undefined) continue
    const notice: Notice = { kind: 'firing', at, incident, newCount: 1, channels: [name], channel: name }
    if (person !== undefined && name !== INCIDENT_CHANNEL) notice.people = [person]
    deliveries.push({
      notice: { ...notice, channel: name },
      channelType: channel.type,
      message: messageFor(channel, notice, incident.title),
    })
  }
  return deliveries
}

/** The lead's note that the test page was acknowledged (the recording channel only: nobody is paged again). */
export function testAckDeliveries(parts: TestNotices, actor: Actor): Delivery[] {
  const channel = parts.channels.find((c) => c.name === INCIDENT_CHANNEL)
  if (channel === undefined) return []
  const ack = { by: actor.by, via: actor.via, at: parts.at, detail: actor.detail }
  const incident: IncidentSnapshot = { ...parts.incident, status: 'acknowledged', ack }
  const notice: Notice = {
    kind: 'acknowledged',
    at: parts.at,
    incident,
    newCount: 0,
    channels: [INCIDENT_CHANNEL],
    channel: INCIDENT_CHANNEL,
    actor,
  }
  return [
    {
      notice: { ...notice, channel: INCIDENT_CHANNEL },
      channelType: 'incident',
      message: renderMessage(channel, notice),
    },
  ]
}
