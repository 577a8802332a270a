// What both renderings of a digest (digest-html.ts, digest-text.ts) say alike: times on the digest's
// clock, levels, counts, the subject line. Pure.
import { levelLabel } from '../levels'
import { localParts } from '../zoned-time'
import type { Digest } from './digest'

/** How a digest is rendered: whose clock its times are on, and who sends it. */
export interface DigestView {
  timeZone: string
  /** Who sends it (the agent's host), said in the heading. */
  host?: string | undefined
}

const two = (n: number): string => String(n).padStart(2, '0')

/** `2026-12-02 09:00` on the digest's clock. */
export function localTime(at: number, timeZone: string): string {
  const p = localParts(at, timeZone)
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`
}

/** `2026-12-01 09:00 to 2026-12-02 09:00 (Asia/Kolkata)`. */
export function periodText(digest: Pick<Digest, 'from' | 'to'>, timeZone: string): string {
  return `${localTime(digest.from, timeZone)} to ${localTime(digest.to, timeZone)} (${timeZone})`
}

export const levelName = (level: number | undefined): string => (level === undefined ? '-' : levelLabel(level))

/** Counts with thousands separated, the same on every host (no locale). */
export function countText(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${countText(n)} ${n === 1 ? one : many}`

/** Cut to `max` characters with an ellipsis (templates can be long). */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`
}

/** The subject: what is new first (that is what a reader opens it for), then the volume. */
export function digestSubject(digest: Digest, view: DigestView): string {
  const { totals } = digest
  const parts = [plural(totals.newKinds, 'new kind'), `${countText(totals.regressed)} regressed`]
  parts.push(plural(totals.events, 'event'), plural(totals.incidents, 'incident'))
  const on = view.host === undefined ? '' : ` on ${view.host}`
  return `logx digest${on}: ${parts.join(', ')} (to ${localTime(digest.to, view.timeZone)})`
}
