// What happened to each incident, for the console and `logx-agent incidents`: every notice that went
// out (firing, repeats, escalations, re-pages, resolves, acknowledgements) and every missed call used,
// in order, with who did it. Kept in memory, bounded (the newest entries of the most recently changed
// incidents), and appended to `<state_dir>/timeline.jsonl` (one write per engine step), so a restart
// shows the same history. The file is a journal (state-journal.ts: a row cut by a kill is skipped),
// compacted at start when it holds far more than is kept (compaction.ts, rule 1).
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Delivery } from '../../alerts'
import { compactAtOpen } from './compaction'
import { openStateJournal, type JournalOp, type StateJournal } from './state-journal'

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
  const actor =
    notice.actor === undefined
      ? ''
      : ` by ${notice.actor.by}${notice.actor.detail === undefined ? '' : ` (${notice.actor.detail})`}`
  const count = notice.kind === 'repeat' ? ` (${notice.newCount} new, ${notice.incident.count} in all)` : ''
  const step = notice.kind === 'escalated' ? ` to step ${notice.incident.step}` : ''
  const to = channels.length === 0 ? '' : `: ${channels.join(', ')}`
  if (notice.inhibitedBy !== undefined)
    return `${TEXT.inhibited} while "${notice.inhibitedBy.title}" (${notice.inhibitedBy.rule}) fires`
  return `${TEXT[notice.kind]}${step}${count}${actor}${to}`
}

/** A row of the journal: the incident's key, then the entry. */
type Line = readonly [string, TimelineEntry]

const isLine = (op: JournalOp): op is Line => typeof op[1] === 'object' && op[1] !== null

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

  let journal: StateJournal | undefined
  function write(lines: readonly Line[]): void {
    journal?.append(lines)
  }

  if (file !== undefined) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    const opened = openStateJournal(file, 'timeline')
    journal = opened.journal
    const lines = opened.ops.filter(isLine)
    for (const [key, entry] of lines) remember(key, entry)
    let kept = 0
    for (const list of entries.values()) kept += list.length
    // Rewritten when most of it is no longer kept: the file stays within a few times what is shown.
    if (compactAtOpen(lines.length, kept))
      journal.rewrite([...entries].flatMap(([key, list]) => list.map((e): Line => [key, e])))
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
        const entry: TimelineEntry = {
          at: notice.at,
          kind: notice.kind,
          text: noticeText(notice, channels),
          by: notice.actor?.by,
          channels,
        }
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
