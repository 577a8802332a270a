// Rendering a routed notice into the message of its channel. Template values come from the notice
// (status, title, count...) first and from the incident's latest line second. Known secrets are
// scrubbed from every rendered string as a last line of defence.
//
// A page of an incident nobody has acknowledged says how to acknowledge it (`RenderOptions.ackHint`):
// the `{{ack}}` variable, or, when no template uses it, added where each channel has room for it. A
// cut message still carries the whole hint: the body is cut first.
import type { Channel, CompiledKindTemplates } from './channels'
import { causeOf } from './cause'
import { levelLabel } from './levels'
import { PAGE_KINDS, type Notice, type NoticeKind } from './notice'
import { scrubText, usableSecrets } from './secrets'
import type { Template } from './template'

/** What the engine adds to every page (its `acknowledge` option). */
export interface RenderOptions {
  /** The final hint text ("Ack: missed call +91..."); undefined or '': no hint. */
  ackHint?: string | undefined
  /** Audio played after a voice page's own (how to acknowledge). */
  ackAudio?: string | undefined
}

export type RenderedMessage =
  | { type: 'sms'; text: string }
  | { type: 'chat'; variables: string[] }
  | { type: 'mail'; subject: string; text: string; html: string }
  | { type: 'voice'; receivers: { label: string; number: string }[]; audioFiles: string[] }
  | { type: 'incident'; title: string; notes: string }

const STATUS: Readonly<Record<NoticeKind, string>> = {
  firing: 'FIRING',
  repeat: 'STILL FIRING',
  escalated: 'ESCALATED',
  resolved: 'RESOLVED',
  digest: 'DIGEST',
  acknowledged: 'ACKNOWLEDGED',
  unacknowledged: 'UNACKNOWLEDGED',
  inhibited: 'INHIBITED',
}

/** Whether this notice should say how to acknowledge: a page of an incident nobody has. */
export function asksForAck(notice: Notice): boolean {
  return PAGE_KINDS.has(notice.kind) && notice.incident.status !== 'acknowledged'
}

/** The hint this notice carries: '' when it carries none. */
export function ackHintOf(notice: Notice, options: RenderOptions = {}): string {
  // One line: it ends an SMS whose body had its whitespace collapsed.
  const hint = options.ackHint?.replace(/\s+/g, ' ').trim() ?? ''
  return hint !== '' && asksForAck(notice) ? hint : ''
}

/** The template values of a notice; `ack` is the hint it carries (ackHintOf). */
export function noticeVars(notice: Notice, ack = ''): Record<string, unknown> {
  const { incident } = notice
  const error = truncate(causeOf(incident.lastLine.record, incident.lastLine.msg), MAX_FIELD)
  return {
    status: STATUS[notice.kind],
    kind: notice.kind,
    title: incident.title,
    rule: incident.rule,
    fingerprint: incident.key,
    count: incident.count,
    new_count: notice.newCount,
    suppressed: notice.suppressed ?? 0,
    step: incident.step,
    level: levelLabel(incident.lastLine.level),
    first_seen: new Date(incident.firstSeen).toISOString(),
    last_seen: new Date(incident.lastSeen).toISOString(),
    msg: incident.lastLine.msg,
    source: incident.lastLine.source,
    error,
    headline: error === '' ? incident.title : `${incident.title}: ${error}`,
    ack,
    acked_by: incident.ack?.by ?? notice.actor?.by ?? '',
  }
}

// Acknowledged and unacknowledged notices read like pages with their own status word.
function pick(templates: CompiledKindTemplates, kind: NoticeKind): Template {
  if (kind === 'resolved') return templates.resolved
  if (kind === 'digest') return templates.digest
  return templates.firing
}

const ACK_PLACEHOLDER = /\{\{\s*ack\s*\}\}/

function usesAck(template: Template): boolean {
  return ACK_PLACEHOLDER.test(template.source)
}

/** `body` and then `hint` within `max`: the body is cut first, so the hint arrives whole when it fits at all. */
export function withHint(body: string, hint: string, max: number): string {
  if (hint === '') return truncate(body, max)
  if (body === '') return truncate(hint, max)
  if (hint.length + 2 > max) return truncate(`${body} ${hint}`, max)
  return `${truncate(body, max - hint.length - 1)} ${hint}`
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Shortens to `max` UTF-16 units, ending in an ellipsis, without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  let cut = max - 1
  const code = text.charCodeAt(cut - 1)
  if (code >= 0xd800 && code <= 0xdbff) cut--
  return `${text.slice(0, cut)}…`
}

const SKIPPED_FIELDS = new Set(['msg', 'err', 'level', 'time'])

// A line may be as long as max_line_bytes (megabytes if so configured); a message built from it must
// still be one an API accepts (the messaging API takes bodies up to 1 MiB, and HTML escaping can grow
// text fivefold). Long parts are cut with an ellipsis, and past MAX_FIELDS the rest are counted.
export const MAX_TEXT = 16_384
export const MAX_FIELD = 1024
export const MAX_FIELDS = 100
export const MAX_VARIABLE = 1024

/** The line's fields as label/value pairs for mail bodies and notes (error and message shown apart). */
export function fieldRows(record: Readonly<Record<string, unknown>>): [string, string][] {
  const rows: [string, string][] = []
  let more = 0
  for (const [key, value] of Object.entries(record)) {
    if (SKIPPED_FIELDS.has(key)) continue
    if (rows.length === MAX_FIELDS) {
      more++
      continue
    }
    rows.push([
      truncate(key, MAX_FIELD),
      truncate(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), MAX_FIELD),
    ])
  }
  if (more > 0) rows.push(['…', `${more} more field(s)`])
  return rows
}

/**
 * A plain-text line as written, when its message is only part of it (the timestamp, level and
 * logger left out: text-head.ts); '' otherwise. Its first line only: a multi-line event's trace
 * is shown as its stack.
 */
function wholeLine(line: Notice['incident']['lastLine']): string {
  if (line.json || line.raw === line.msg) return ''
  const end = line.raw.indexOf('\n')
  return truncate(end === -1 ? line.raw : line.raw.slice(0, end), MAX_TEXT)
}

function stackOf(record: Readonly<Record<string, unknown>>): string {
  const err = record.err
  if (typeof err === 'object' && err !== null && typeof (err as { stack?: unknown }).stack === 'string') {
    return truncate((err as { stack: string }).stack, MAX_TEXT)
  }
  return ''
}

/** Who did what by hand, for the trail: "asha via missed_call (missed call from +91…)". */
function actorText(notice: Notice): string | undefined {
  const actor = notice.actor
  if (actor === undefined) return undefined
  return `${actor.by} via ${actor.via}${actor.detail === undefined ? '' : ` (${actor.detail})`}`
}

function mailBodies(notice: Notice, vars: Record<string, unknown>): { text: string; html: string } {
  const record = notice.incident.lastLine.record
  const message = truncate(notice.incident.lastLine.msg, MAX_TEXT)
  const summary: [string, string][] = [
    ['status', String(vars.status)],
    ['rule', notice.incident.rule],
    ['count', String(notice.incident.count)],
    ['first seen', String(vars.first_seen)],
    ['last seen', String(vars.last_seen)],
  ]
  if (vars.error !== '') summary.splice(1, 0, ['error', String(vars.error)])
  const by = actorText(notice)
  if (by !== undefined) summary.push(['by', by])
  if (notice.kind === 'digest') summary.push(['suppressed', String(notice.suppressed ?? 0)])
  const fields = fieldRows(record)
  const stack = stackOf(record)
  const whole = wholeLine(notice.incident.lastLine)
  const hint = String(vars.ack)
  const text = [
    notice.incident.title,
    '',
    ...(hint !== '' ? [hint, ''] : []),
    ...summary.map(([k, v]) => `${k}: ${v}`),
    '',
    `message: ${message}`,
    ...(whole !== '' ? [`line: ${whole}`] : []),
    ...(fields.length > 0 ? ['', 'fields:', ...fields.map(([k, v]) => `  ${k}: ${v}`)] : []),
    ...(stack !== '' ? ['', 'stack:', stack] : []),
  ].join('\n')
  const row = ([k, v]: [string, string]): string =>
    `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`
  const html = [
    `<h2>${escapeHtml(notice.incident.title)}</h2>`,
    hint !== '' ? `<p><strong>${escapeHtml(hint)}</strong></p>` : '',
    `<table>${summary.map(row).join('')}</table>`,
    `<p>${escapeHtml(message)}</p>`,
    whole !== '' ? `<pre>${escapeHtml(whole)}</pre>` : '',
    fields.length > 0 ? `<h3>Fields</h3><table>${fields.map(row).join('')}</table>` : '',
    stack !== '' ? `<h3>Stack</h3><pre>${escapeHtml(stack)}</pre>` : '',
  ].join('')
  return { text, html }
}

function incidentNotes(notice: Notice, vars: Record<string, unknown>): string {
  const { incident } = notice
  const lines = [
    `${vars.status}: ${incident.title}`,
    ...(vars.error !== '' ? [`error: ${vars.error}`] : []),
    `rule: ${incident.rule}`,
    `fingerprint: ${incident.key}`,
    `count: ${incident.count} (${notice.newCount} new)`,
    `first seen: ${vars.first_seen}`,
    `last seen: ${vars.last_seen}`,
  ]
  if (notice.kind === 'escalated') lines.push(`escalation step: ${incident.step}`)
  if (notice.kind === 'digest') lines.push(`suppressed: ${notice.suppressed ?? 0}`)
  const by = actorText(notice)
  if (by !== undefined) lines.push(`by: ${by}`)
  if (notice.kind === 'acknowledged' && incident.ack !== undefined)
    lines.push(`acknowledged at: ${new Date(incident.ack.at).toISOString()}`)
  if (notice.kind === 'unacknowledged') lines.push(`escalation resumes from step: ${incident.step}`)
  if (notice.inhibitedBy !== undefined) {
    const { title, rule, key } = notice.inhibitedBy
    lines.push(`muted while this incident fires: ${title} (rule ${rule}, ${key})`)
  }
  if (notice.oncall !== undefined)
    lines.push(`on call: ${notice.oncall.map((o) => `${o.user} (${o.schedule}/${o.layer})`).join(', ')}`)
  return lines.join('\n')
}

function chatVariables(
  templates: readonly Template[],
  ctx: { vars: Record<string, unknown>; record: Readonly<Record<string, unknown>> },
  hint: string,
): string[] {
  const values = templates.map((t) => t.render(ctx))
  // The hint rides on the last variable when no variable places it.
  const appendTo = hint !== '' && !templates.some(usesAck) ? values.length - 1 : -1
  return values.map((v, i) => (i === appendTo ? withHint(v, hint, MAX_VARIABLE) : truncate(v, MAX_VARIABLE)))
}

function voiceAudio(channel: Extract<Channel, { type: 'voice' }>, notice: Notice, options: RenderOptions): string[] {
  // An acknowledgement calms things down: it sounds like a resolve, not like an alarm.
  if (notice.kind === 'resolved' || notice.kind === 'acknowledged') return channel.audio.resolved
  if (notice.kind === 'digest') return channel.audio.digest
  const howTo = options.ackAudio
  return howTo !== undefined && howTo !== '' && asksForAck(notice)
    ? [...channel.audio.firing, howTo]
    : channel.audio.firing
}

export function renderMessage(channel: Channel, notice: Notice, options: RenderOptions = {}): RenderedMessage {
  const hint = ackHintOf(notice, options)
  const vars = noticeVars(notice, hint)
  const ctx = { vars, record: notice.incident.lastLine.record }
  switch (channel.type) {
    case 'sms': {
      const template = pick(channel.templates, notice.kind)
      const text = template.render(ctx).replace(/\s+/g, ' ').trim()
      return {
        type: 'sms',
        text: usesAck(template) ? truncate(text, channel.maxLength) : withHint(text, hint, channel.maxLength),
      }
    }
    case 'chat':
      return { type: 'chat', variables: chatVariables(channel.variables, ctx, hint) }
    case 'mail':
      return {
        type: 'mail',
        subject: truncate(pick(channel.subjects, notice.kind).render(ctx).replace(/\s+/g, ' ').trim(), MAX_FIELD),
        ...mailBodies(notice, vars),
      }
    case 'voice':
      return { type: 'voice', receivers: channel.receivers, audioFiles: voiceAudio(channel, notice, options) }
    case 'incident':
      return { type: 'incident', title: notice.incident.title, notes: incidentNotes(notice, vars) }
  }
}

/** Replaces every occurrence of each secret in every string of the message. */
export function scrubSecrets(message: RenderedMessage, secrets: readonly string[]): RenderedMessage {
  const real = usableSecrets(secrets)
  if (real.length === 0) return message
  const scrub = (text: string): string => scrubText(text, real)
  switch (message.type) {
    case 'sms':
      return { ...message, text: scrub(message.text) }
    case 'chat':
      return { ...message, variables: message.variables.map(scrub) }
    case 'mail':
      return { ...message, subject: scrub(message.subject), text: scrub(message.text), html: scrub(message.html) }
    case 'voice':
      return message
    case 'incident':
      return { ...message, title: scrub(message.title), notes: scrub(message.notes) }
  }
}
