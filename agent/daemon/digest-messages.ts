// A digest as the alert path carries it: one delivery per channel of `digest.notify`, each a notice
// of kind `digest` about an incident of the digest's own (so it goes the way of every notice:
// journaled in the outbox, retried there, sent by the channel's sender, claimed once in a fleet,
// and recorded on no lead: no rule of the config records it). Pure: the digest, the channels and
// the time are passed in. The rules:
// 1. A mail channel gets the whole digest: its subject, the HTML (its lists cut shorter when it
//    would not fit a mail API's size limit) and the text (the channel's `format` picks the body, as
//    for every mail it sends).
// 2. An sms channel gets the short variant within its `max_length`.
// 3. A chat channel's template variables are rendered with the short variant as the title,
//    headline and message (`{{count}}` is the period's events); a channel without variables gets
//    the short variant as its one variable.
// 4. A channel that is not configured (any more), or a voice channel, gets nothing.
// 5. The known secrets are cut out of every text, as from every rendered message.
// 6. The incident is keyed by the period's end and the channel, so a fleet's agents name the same
//    digest alike and one of them sends it.
// 7. A channel that reaches whoever is on call (`oncall`) sends to the person on call at the digest's
//    time, as a page would (none on call: the channel gets nothing). Active hours are not applied:
//    the digest's own `at` says when it goes out.
import type { Delivery, IncidentSnapshot, Notice, ScheduleConfig } from '../../alerts'
import { onCallAt } from '../../alerts/schedule'
import type { Digest, DigestView } from '../../alerts/kinds'
import { digestHtmlWithin, digestShort, digestSubject, digestText } from '../../alerts/kinds'
import { MAX_VARIABLE, scrubSecrets } from '../../alerts/render'
import { compileTemplate } from '../../alerts/template'
import type { ChannelConfig } from '../config/types'

/** The rule the digests' incidents belong to (no config rule is named so: rules take no colon-free "logx-" prefix). */
export const DIGEST_RULE = 'logx-digest'

/** Rule 6. */
export function digestIncident(digest: Digest, channel: string, title: string): IncidentSnapshot {
  const line = { raw: title, record: { msg: title }, level: 30, msg: title, source: 'logx-agent digest', json: false }
  return {
    key: `${DIGEST_RULE}:${channel}:${digest.to}`,
    rule: DIGEST_RULE,
    title,
    parts: ['digest', channel, String(digest.to)],
    status: 'firing',
    ack: undefined,
    firstSeen: digest.from,
    lastSeen: digest.to,
    firedAt: digest.to,
    notifiedAt: digest.to,
    pagedTo: {},
    count: digest.totals.events,
    step: 0,
    firstLine: line,
    lastLine: line,
  }
}

/** Rule 3. */
function chatVariables(templates: readonly string[] | undefined, short: string, digest: Digest): string[] {
  if (templates === undefined || templates.length === 0) return [short]
  const vars = { status: 'DIGEST', kind: 'digest', title: short, headline: short, msg: short, error: '' }
  const ctx = { vars: { ...vars, count: digest.totals.events, rule: DIGEST_RULE }, record: {} }
  return templates.map((source, i) =>
    compileTemplate(source, `digest.variables[${i}]`).render(ctx).slice(0, MAX_VARIABLE),
  )
}

/** Rules 1 to 4. */
function messageOf(channel: ChannelConfig, digest: Digest, view: DigestView): Delivery['message'] | undefined {
  switch (channel.type) {
    case 'mail':
      return {
        type: 'mail',
        subject: digestSubject(digest, view),
        html: digestHtmlWithin(digest, view),
        text: digestText(digest, view),
      }
    case 'sms':
      return { type: 'sms', text: digestShort(digest, view, channel.maxLength) }
    case 'chat':
      return {
        type: 'chat',
        variables: chatVariables(channel.variables, digestShort(digest, view, MAX_VARIABLE), digest),
      }
    case 'voice':
      return undefined
  }
}

export interface DigestRouting {
  notify: readonly string[]
  channels: readonly ChannelConfig[]
  /** The config's schedules, for channels that reach whoever is on call. */
  schedules?: readonly ScheduleConfig[] | undefined
  secrets: readonly string[]
}

/** Rule 7: the person on call a channel reaches at `at`; undefined: its own recipients; null: nobody. */
function onCallPeople(channel: ChannelConfig, routing: DigestRouting, at: number): string[] | undefined | null {
  const ref = channel.oncall
  if (ref === undefined) return undefined
  const schedule = routing.schedules?.find((s) => s.name === ref.schedule)
  const who = schedule === undefined ? undefined : onCallAt(schedule, ref.layer, at)
  return who === undefined ? null : [who.user]
}

/** One delivery per channel named that can carry the digest, secrets cut out (rule 5). */
export function digestDeliveries(digest: Digest, view: DigestView, routing: DigestRouting): Delivery[] {
  const deliveries: Delivery[] = []
  for (const name of routing.notify) {
    const channel = routing.channels.find((c) => c.name === name)
    const message = channel === undefined ? undefined : messageOf(channel, digest, view)
    if (channel === undefined || message === undefined) continue
    const people = onCallPeople(channel, routing, digest.to)
    if (people === null) continue
    const incident = digestIncident(digest, name, digestSubject(digest, view))
    const notice: Notice = { kind: 'digest', at: digest.to, incident, newCount: 0, channels: [name], channel: name }
    if (people !== undefined) notice.people = people
    deliveries.push({
      notice: { ...notice, channel: name },
      channelType: channel.type,
      message: scrubSecrets(message, routing.secrets),
    })
  }
  return deliveries
}
