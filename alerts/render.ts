// Rendering a routed notice into the message of its channel. Template values come from the notice
// (status, title, count...) first and from the incident's latest line second. Known secrets are
// scrubbed from every rendered string as a last line of defence.
import type { Channel, CompiledKindTemplates } from './channels'
import { levelLabel } from './levels'
import type { Notice, NoticeKind } from './notice'
import { scrubText, usableSecrets } from './secrets'
import type { Template } from './template'

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
}

export function noticeVars(notice: Notice): Record<string, unknown> {
  const { incident } = notice
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
  }
}

function pick(templates: CompiledKindTemplates, kind: NoticeKind): Template {
  if (kind === 'resolved') return templates.resolved
  if (kind === 'digest') return templates.digest
  return templates.firing
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
    rows.push([truncate(key, MAX_FIELD), truncate(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value), MAX_FIELD)])
  }
  if (more > 0) rows.push(['…', `${more} more field(s)`])
  return rows
}

function stackOf(record: Readonly<Record<string, unknown>>): string {
  const err = record.err
  if (typeof err === 'object' && err !== null && typeof (err as { stack?: unknown }).stack === 'string') {
    return truncate((err as { stack: string }).stack, MAX_TEXT)
  }
  return ''
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
  if (notice.kind === 'digest') summary.push(['suppressed', String(notice.suppressed ?? 0)])
  const fields = fieldRows(record)
  const stack = stackOf(record)
  const text = [
    notice.incident.title,
    '',
    ...summary.map(([k, v]) => `${k}: ${v}`),
    '',
    `message: ${message}`,
    ...(fields.length > 0 ? ['', 'fields:', ...fields.map(([k, v]) => `  ${k}: ${v}`)] : []),
    ...(stack !== '' ? ['', 'stack:', stack] : []),
  ].join('\n')
  const row = ([k, v]: [string, string]): string => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`
  const html = [
    `<h2>${escapeHtml(notice.incident.title)}</h2>`,
    `<table>${summary.map(row).join('')}</table>`,
    `<p>${escapeHtml(message)}</p>`,
    fields.length > 0 ? `<h3>Fields</h3><table>${fields.map(row).join('')}</table>` : '',
    stack !== '' ? `<h3>Stack</h3><pre>${escapeHtml(stack)}</pre>` : '',
  ].join('')
  return { text, html }
}

function incidentNotes(notice: Notice, vars: Record<string, unknown>): string {
  const { incident } = notice
  const lines = [
    `${vars.status}: ${incident.title}`,
    `rule: ${incident.rule}`,
    `fingerprint: ${incident.key}`,
    `count: ${incident.count} (${notice.newCount} new)`,
    `first seen: ${vars.first_seen}`,
    `last seen: ${vars.last_seen}`,
  ]
  if (notice.kind === 'escalated') lines.push(`escalation step: ${incident.step}`)
  if (notice.kind === 'digest') lines.push(`suppressed: ${notice.suppressed ?? 0}`)
  return lines.join('\n')
}

export function renderMessage(channel: Channel, notice: Notice): RenderedMessage {
  const vars = noticeVars(notice)
  const ctx = { vars, record: notice.incident.lastLine.record }
  switch (channel.type) {
    case 'sms': {
      const text = pick(channel.templates, notice.kind).render(ctx).replace(/\s+/g, ' ').trim()
      return { type: 'sms', text: truncate(text, channel.maxLength) }
    }
    case 'chat':
      return { type: 'chat', variables: channel.variables.map((t) => truncate(t.render(ctx), MAX_VARIABLE)) }
    case 'mail':
      return { type: 'mail', subject: truncate(pick(channel.subjects, notice.kind).render(ctx).replace(/\s+/g, ' ').trim(), MAX_FIELD), ...mailBodies(notice, vars) }
    case 'voice': {
      const audioFiles = notice.kind === 'resolved' ? channel.audio.resolved : notice.kind === 'digest' ? channel.audio.digest : channel.audio.firing
      return { type: 'voice', receivers: channel.receivers, audioFiles }
    }
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
