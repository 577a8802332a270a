// A digest as text: the whole of it for a mail channel that sends text (`format: text`), and the
// short variant for an SMS or a chat message (the counts, then the first new kinds, within the
// channel's length). Pure.
import type { Digest, DigestKind, DigestList } from './digest'
import { clip, countText, levelName, localTime, periodText, plural, type DigestView } from './digest-format'

/** New kinds the short variant names. */
export const SHORT_NEW_KINDS = 3
const TEMPLATE_CHARS = 300

function more(list: DigestList<unknown>): string[] {
  return list.more === 0 ? [] : [`  ... and ${countText(list.more)} more`]
}

function kindLines(title: string, list: DigestList<DigestKind>, line: (k: DigestKind) => string): string[] {
  if (list.items.length === 0) return []
  return ['', title, ...list.items.map((k) => `  ${line(k)}`), ...more(list)]
}

/** The whole digest as plain text. */
export function digestText(digest: Digest, view: DigestView): string {
  const { totals } = digest
  const at = (ms: number): string => localTime(ms, view.timeZone)
  const lines = [
    `logx digest${view.host === undefined ? '' : ` from ${view.host}`}: ${periodText(digest, view.timeZone)}`,
    `${plural(totals.events, 'event')}, ${plural(totals.kinds, 'kind')}, ${plural(totals.newKinds, 'new kind')}, ` +
      `${countText(totals.regressed)} regressed, ${plural(totals.incidents, 'incident')}`,
    ...kindLines(
      `New kinds (${countText(totals.newKinds)}):`,
      digest.newKinds,
      (k) => `${at(k.firstSeen)}  ${levelName(k.level)}  ${countText(k.count)}x  ${clip(k.template, TEMPLATE_CHARS)}`,
    ),
    ...kindLines(
      'Top kinds:',
      digest.top,
      (k) => `${countText(k.count)}x  ${levelName(k.level)}  ${clip(k.template, TEMPLATE_CHARS)}`,
    ),
    ...kindLines(
      `Regressed kinds (${countText(totals.regressed)}):`,
      digest.regressed,
      (k) => `${at(k.lastSeen)}  ${countText(k.count)}x  ${clip(k.template, TEMPLATE_CHARS)}`,
    ),
  ]
  if (digest.incidents.items.length > 0) {
    lines.push('', `Incidents (${countText(totals.incidents)}):`)
    for (const i of digest.incidents.items) {
      const ack = i.ack === undefined ? 'not acknowledged' : `acknowledged by ${i.ack.by} at ${at(i.ack.at)}`
      lines.push(`  ${clip(i.title, 200)} [${i.rule}] ${i.status}, ${countText(i.count)} lines, ${ack}`)
    }
    lines.push(...more(digest.incidents))
  }
  return lines.join('\n')
}

/**
 * The short variant, on one line, at most `maxLength` characters: the counts always whole, then as
 * many of the first new kinds' templates as fit (each cut to share what is left).
 */
export function digestShort(digest: Digest, view: DigestView, maxLength: number): string {
  const { totals } = digest
  const head =
    `logx digest to ${localTime(digest.to, view.timeZone)}: ${plural(totals.events, 'event')}, ` +
    `${plural(totals.newKinds, 'new kind')}, ${countText(totals.regressed)} regressed, ` +
    `${plural(totals.incidents, 'incident')}`
  const fresh = digest.newKinds.items.slice(0, SHORT_NEW_KINDS).map((k) => k.template.replace(/\s+/g, ' ').trim())
  if (fresh.length === 0 || head.length >= maxLength) return clip(head, maxLength)
  const prefix = `${head}. New: `
  const room = maxLength - prefix.length - 2 * (fresh.length - 1)
  if (room < fresh.length * 8) return clip(head, maxLength)
  const each = Math.floor(room / fresh.length)
  return clip(prefix + fresh.map((t) => clip(t, each)).join('; '), maxLength)
}
