// A digest as an HTML mail that mail clients render: nested tables, every style inline (no <style>
// block, no class), bars drawn with sized cells and divs, no script, no image, no link to anything
// outside the mail. Every text from the logs is escaped (templates hold `<`, `&`, quotes). Pure.
import type { Digest, DigestIncidentInput, DigestKind, DigestList } from './digest'
import { clip, countText, levelName, localTime, periodText, plural, type DigestView } from './digest-format'

const TEMPLATE_CHARS = 300
const BAR_HEIGHT = 24
const FONT = 'font-family:Arial,Helvetica,sans-serif'
const INK = '#1d2330'
const MUTED = '#667085'
const RULE = '#e4e7ec'
const CELL = `padding:6px 8px;border-top:1px solid ${RULE};vertical-align:top;font-size:13px`
const HEAD = `padding:6px 8px;text-align:left;font-size:12px;color:${MUTED};font-weight:bold`

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const td = (content: string, style = ''): string => `<td style="${CELL};${style}">${content}</td>`
const code = (text: string): string =>
  `<code style="font-family:Consolas,Menlo,monospace;font-size:12px;word-break:break-word">` +
  `${escapeHtml(clip(text, TEMPLATE_CHARS))}</code>`

function table(section: string, headings: readonly string[], rows: readonly string[]): string {
  const head = headings.map((h) => `<th style="${HEAD}">${escapeHtml(h)}</th>`).join('')
  return (
    `<table role="presentation" data-section="${section}" width="100%" cellpadding="0" cellspacing="0" ` +
    `style="border-collapse:collapse;width:100%"><tr>${head}</tr>${rows.join('')}</table>`
  )
}

/** One cell per bucket, each holding a div as tall as its share of the kind's busiest bucket. */
export function hourlyBar(buckets: readonly number[], bucketMs: number, from: number, view: DigestView): string {
  const max = Math.max(1, ...buckets)
  const start = Math.floor(from / 3_600_000) * 3_600_000
  // Small: a digest holds hundreds of these cells, and mail APIs cap a message's size.
  const cells = buckets.map((count, i) => {
    const height = count === 0 ? 1 : Math.max(2, Math.round((BAR_HEIGHT * count) / max))
    const color = count === 0 ? RULE : '#d9534f'
    const title = `${countText(count)} at ${localTime(start + i * bucketMs, view.timeZone).slice(11)}`
    return (
      `<td title="${escapeHtml(title)}" style="vertical-align:bottom;padding:0 1px 0 0">` +
      `<div data-count="${count}" style="width:5px;height:${height}px;background:${color};font-size:0"></div></td>`
    )
  })
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" ` +
    `style="border-collapse:collapse;height:${BAR_HEIGHT}px"><tr>${cells.join('')}</tr></table>`
  )
}

/** A horizontal bar: the kind's share of the top kind's count. */
function shareBar(count: number, max: number): string {
  const percent = Math.max(1, Math.round((100 * count) / Math.max(1, max)))
  return (
    `<div style="width:120px;background:${RULE}"><div style="width:${percent}%;height:8px;` +
    `background:#3b6fd4;font-size:0;line-height:0">&nbsp;</div></div>`
  )
}

function more(list: DigestList<unknown>, what: string): string {
  if (list.more === 0) return ''
  return `<p style="margin:6px 0 0;font-size:12px;color:${MUTED}">and ${plural(list.more, what)} more</p>`
}

function section(title: string, body: string): string {
  return (
    `<tr><td style="padding:14px 20px 4px"><h2 style="margin:0 0 6px;font-size:15px;color:${INK}">` +
    `${escapeHtml(title)}</h2>${body}</td></tr>`
  )
}

const none = (text: string): string => `<p style="margin:0;font-size:13px;color:${MUTED}">${escapeHtml(text)}</p>`

function where(kind: DigestKind): string {
  const hosts = kind.hosts.length === 0 ? '' : ` on ${kind.hosts.slice(0, 3).join(', ')}`
  return escapeHtml(`${kind.source ?? '-'}${hosts}`)
}

function newKinds(digest: Digest, view: DigestView): string {
  const rows = digest.newKinds.items.map(
    (k) =>
      `<tr>${td(escapeHtml(localTime(k.firstSeen, view.timeZone)), 'white-space:nowrap')}` +
      `${td(escapeHtml(levelName(k.level)))}${td(countText(k.count), 'text-align:right')}` +
      `${td(where(k))}${td(code(k.template))}</tr>`,
  )
  if (rows.length === 0) return section('New kinds', none('No kind was seen for the first time.'))
  const body = table('new', ['first seen', 'level', 'count', 'source', 'template'], rows)
  return section(`New kinds (${countText(digest.totals.newKinds)})`, body + more(digest.newKinds, 'new kind'))
}

function topKinds(digest: Digest, view: DigestView): string {
  const max = digest.top.items[0]?.count ?? 1
  const rows = digest.top.items.map(
    (k) =>
      `<tr>${td(countText(k.count), 'text-align:right;white-space:nowrap')}${td(shareBar(k.count, max))}` +
      `${td(hourlyBar(k.buckets, digest.bucketMs, digest.from, view))}` +
      `${td(escapeHtml(levelName(k.level)))}${td(code(k.template))}</tr>`,
  )
  if (rows.length === 0) return section('Top kinds', none('No event of any kind in this period.'))
  const hours = digest.bucketMs / 3_600_000
  const barHeading = hours === 1 ? 'per hour' : `per ${hours} hours`
  const body = table('top', ['count', 'share', barHeading, 'level', 'template'], rows)
  return section('Top kinds', body + more(digest.top, 'kind'))
}

function regressed(digest: Digest, view: DigestView): string {
  const rows = digest.regressed.items.map(
    (k) =>
      `<tr>${td(escapeHtml(localTime(k.lastSeen, view.timeZone)), 'white-space:nowrap')}` +
      `${td(countText(k.count), 'text-align:right')}${td(where(k))}${td(code(k.template))}</tr>`,
  )
  if (rows.length === 0) return section('Regressed kinds', none('No kind came back after its incident was resolved.'))
  const body = table('regressed', ['last seen', 'count', 'source', 'template'], rows)
  return section(`Regressed kinds (${countText(digest.totals.regressed)})`, body + more(digest.regressed, 'kind'))
}

function ackText(incident: DigestIncidentInput, view: DigestView): string {
  if (incident.ack === undefined) return `<span style="color:${MUTED}">nobody</span>`
  return escapeHtml(`${incident.ack.by} at ${localTime(incident.ack.at, view.timeZone)}`)
}

function incidents(digest: Digest, view: DigestView): string {
  const rows = digest.incidents.items.map(
    (i) =>
      `<tr>${td(escapeHtml(clip(i.title, 200)))}${td(escapeHtml(i.rule))}${td(escapeHtml(i.status))}` +
      `${td(countText(i.count), 'text-align:right')}${td(ackText(i, view))}</tr>`,
  )
  if (rows.length === 0) return section('Incidents', none('No incident in this period.'))
  const body = table('incidents', ['incident', 'rule', 'status', 'lines', 'acknowledged by'], rows)
  return section(`Incidents (${countText(digest.totals.incidents)})`, body + more(digest.incidents, 'incident'))
}

function summary(digest: Digest): string {
  const { totals } = digest
  const figures: [string, number][] = [
    ['events', totals.events],
    ['kinds', totals.kinds],
    ['new kinds', totals.newKinds],
    ['regressed', totals.regressed],
    ['incidents', totals.incidents],
  ]
  const cells = figures.map(
    ([label, n]) =>
      `<td align="center" style="padding:10px 4px;${FONT}"><div style="font-size:20px;font-weight:bold">` +
      `${countText(n)}</div><div style="font-size:12px;color:${MUTED}">${label}</div></td>`,
  )
  return (
    `<tr><td style="padding:8px 20px"><table role="presentation" data-section="summary" width="100%" ` +
    `cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%"><tr>${cells.join('')}</tr>` +
    `</table></td></tr>`
  )
}

function heading(digest: Digest, view: DigestView): string {
  const on = view.host === undefined ? '' : ` from ${view.host}`
  return (
    `<tr><td style="padding:16px 20px;background:${INK};color:#ffffff">` +
    `<h1 style="margin:0;font-size:18px;color:#ffffff">${escapeHtml(`logx digest${on}`)}</h1>` +
    `<div style="font-size:13px;margin-top:4px">${escapeHtml(periodText(digest, view.timeZone))}</div></td></tr>`
  )
}

/** The whole mail body: a document whose every style is inline. */
export function digestHtml(digest: Digest, view: DigestView): string {
  const body = [
    heading(digest, view),
    summary(digest),
    newKinds(digest, view),
    topKinds(digest, view),
    regressed(digest, view),
    incidents(digest, view),
    `<tr><td style="padding:14px 20px;font-size:12px;color:${MUTED}">Sent by logx-agent.</td></tr>`,
  ]
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml('logx digest')}</title></head>` +
    `<body style="margin:0;padding:0;background:#f4f5f7">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7">` +
    `<tr><td align="center" style="padding:16px">` +
    `<table role="presentation" width="680" cellpadding="0" cellspacing="0" style="width:680px;max-width:100%;` +
    `background:#ffffff;border:1px solid #dde1e6;${FONT};color:${INK}">${body.join('')}</table>` +
    `</td></tr></table></body></html>`
  )
}

/**
 * Mail APIs cap a message's size (the sandbox takes 64 KiB a record, and JSON escapes every quote of
 * the markup): a digest's HTML is kept under this many bytes.
 */
export const DIGEST_HTML_MAX_BYTES = 48_000

function cutFurther<T>(list: DigestList<T>): DigestList<T> {
  const keep = Math.floor(list.items.length * 0.7)
  return { items: list.items.slice(0, keep), more: list.more + list.items.length - keep }
}

/** The digest with each list cut to 70% (the rest counted as more); undefined when they are empty. */
function shrunk(digest: Digest): Digest | undefined {
  const lists = [digest.newKinds, digest.top, digest.regressed, digest.incidents]
  if (lists.every((list) => list.items.length === 0)) return undefined
  return {
    ...digest,
    newKinds: cutFurther(digest.newKinds),
    top: cutFurther(digest.top),
    regressed: cutFurther(digest.regressed),
    incidents: cutFurther(digest.incidents),
  }
}

/** digestHtml(), its lists cut shorter until it fits in `maxBytes` (what was cut is said as "and N more"). */
export function digestHtmlWithin(digest: Digest, view: DigestView, maxBytes = DIGEST_HTML_MAX_BYTES): string {
  const encoder = new TextEncoder()
  let current = digest
  for (;;) {
    const html = digestHtml(current, view)
    const next = encoder.encode(html).length <= maxBytes ? undefined : shrunk(current)
    if (next === undefined) return html
    current = next
  }
}
