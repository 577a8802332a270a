// What happened to each incident, for the console and `logx-agent incidents`: every notice that went
// out (firing, repeats, escalations, re-pages, resolves, acknowledgements) and every missed call used,
// in order, with who did it. Kept in memory, bounded (the newest entries of the most recently changed
// incidents), and appended to `<state_dir>/timeline.jsonl` (one write per engine step), so a restart
// shows the same history. The file is compacted at start when it holds far more than is kept.
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Delivery } from '../../alerts'
import { DeliveryError, DeliveryErrorCodes } from './errors'

export interface TimelineEntry {
  at: number
  /** A notice kind, or `missed_call`. */
  kind: string
  text: string
  by?: string | undefined
  /** The channels a notice went out on. */
  channels?: string[] | undefined
}

export interface IncidentTimeline {
  of(key: string): TimelineEntry[]
  /** Records one engine step's notices: one entry per incident and kind, naming its channels. */
  notices(deliveries: readonly Delivery[]): void
  add(key: string, entry: TimelineEntry): void
  readonly size: number
}

export const MAX_ENTRIES_PER_INCIDENT = 50
export const MAX_INCIDENTS = 10_000

const TEXT: Readonly<Record<Delivery['notice']['kind'], string>> = {
  firing: 'firing',
  repeat: 'still firing',
  escalated: 'escalated',
  resolved: 'resolved',
  digest: 'alerts folded into a digest (budget)',
  acknowledged: 'acknowledged',
  unacknowledged: 'no longer acknowledged',
  inhibited: 'page muted by inhibition',
}

function noticeText(notice: Delivery['notice'], channels: string[]): string {
  const actor = notice.actor === undefined ? '' : ` by ${notice.actor.by}${notice.actor.detail === undefined ? '' : ` (${notice.actor.detail})`}`
  const count = notice.kind === 'repeat' ? ` (${notice.newCount} new, ${notice.incident.count} in all)` : ''
  const step = notice.kind === 'escalated' ? ` to step ${notice.incident.step}` : ''
  const to = channels.length === 0 ? '' : `: ${channels.join(', ')}`
  if (notice.inhibitedBy !== undefined) return `${TEXT.inhibited} while "${notice.inhibitedBy.title}" (${notice.inhibitedBy.rule}) fires`
  return `${TEXT[notice.kind]}${step}${count}${actor}${to}`
}

type Line = [string, TimelineEntry]

/** The rows of the file, and whether its last one was cut (killed mid-append). */
function load(file: string): { lines: Line[]; torn: boolean } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], torn: false }
    throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot read ${file}: ${(err as Error).message}`, { cause: err })
  }
  const lines: Line[] = []
  for (const row of text.split('\n')) {
    if (row === '') continue
    try {
      const parsed = JSON.parse(row) as unknown
      // A torn last row (killed mid-append) is skipped: the entries before it stand.
      if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'object' && parsed[1] !== null) lines.push(parsed as Line)
    } catch {}
  }
  return { lines, torn: text !== '' && !text.endsWith('\n') }
}

/** `file`: `<state_dir>/timeline.jsonl`; undefined: memory only. */
export function createIncidentTimeline(file: string | undefined): IncidentTimeline {
  // Insertion order is recency: a changed incident moves to the end, the least recent go first.
  const entries = new Map<string, TimelineEntry[]>()

  function remember(key: string, entry: TimelineEntry): void {
    let list = entries.get(key)
    if (list === undefined) list = []
    else entries.delete(key)
    entries.set(key, list)
    list.push(entry)
    if (list.length > MAX_ENTRIES_PER_INCIDENT) list.splice(0, list.length - MAX_ENTRIES_PER_INCIDENT)
    while (entries.size > MAX_INCIDENTS) entries.delete(entries.keys().next().value as string)
  }

  function write(lines: readonly Line[]): void {
    if (file === undefined || lines.length === 0) return
    try {
      appendFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
    } catch (err) {
      throw new DeliveryError(DeliveryErrorCodes.STATE, `cannot write ${file}: ${(err as Error).message}`, { cause: err })
    }
  }

  if (file !== undefined) {
    mkdirSync(dirname(file), { recursive: true })
    const { lines, torn } = load(file)
    // The cut row stays a row of its own (skipped), not the start of the next one written.
    if (torn) appendFileSync(file, '\n')
    for (const [key, entry] of lines) remember(key, entry)
    let kept = 0
    for (const list of entries.values()) kept += list.length
    // Rewritten when most of it is no longer kept: the file stays within a few times what is shown.
    if (lines.length > 2 * kept + 1000) {
      const tmp = `${file}.tmp`
      writeFileSync(tmp, [...entries].flatMap(([key, list]) => list.map((e) => `${JSON.stringify([key, e])}\n`)).join(''))
      renameSync(tmp, file)
    }
  }

  return {
    of: (key) => [...(entries.get(key) ?? [])],
    notices(deliveries) {
      // One entry per incident and notice kind: the channels it went out on, together.
      const steps = new Map<string, { notice: Delivery['notice']; channels: string[] }>()
      for (const { notice, channelType } of deliveries) {
        const id = `${notice.incident.key}\u0000${notice.kind}`
        let step = steps.get(id)
        if (step === undefined) steps.set(id, (step = { notice, channels: [] }))
        // The recording channel is the trail itself, not a place anyone was told.
        if (channelType === 'incident') continue
        const onCall = notice.oncall?.map((o) => o.user).join(', ')
        step.channels.push(onCall === undefined ? notice.channel : `${notice.channel} (${onCall} on call)`)
      }
      const lines: Line[] = []
      for (const { notice, channels } of steps.values()) {
        const entry: TimelineEntry = { at: notice.at, kind: notice.kind, text: noticeText(notice, channels), by: notice.actor?.by, channels }
        remember(notice.incident.key, entry)
        lines.push([notice.incident.key, entry])
      }
      write(lines)
    },
    add(key, entry) {
      remember(key, entry)
      write([[key, entry]])
    },
    get size() {
      return entries.size
    },
  }
}
