// `logx-agent kinds FILE...`'s report, pure: the mined events of some files gathered by kind, then
// shown as a table or one JSON document.
// 1. a kind counts its events (a multi-line event is one); its first and last are where the first line
//    of its first and of its last event are (file and line number, from 1);
// 2. its template is the last the miner gave (a template only generalises, keeping its id); its
//    sample the first event's raw text, cut to SAMPLE_MAX characters;
// 3. its level is the worst level among its events (none when no event had one);
// 4. `--level L` keeps the kinds whose level is L or worse; a kind without a level is left out then;
// 5. most events first; a tie goes to the kind seen first in the files;
// 6. at most TALLY_MAX kinds are gathered (a file of a million distinct random lines must not hold a
//    million rows): the events of kinds past it are counted, not listed;
// 7. a kind the miner merged into another after some of its events (the template generalised over
//    them) is one row with the kind it went into, under that kind's id: counts summed, first place and
//    sample of the earliest event, last place and template of the latest, the worst level.
import { levelLabel } from '../../../alerts'
import type { KindRef } from '../../../alerts/kinds'
import { terminalText } from '../terminal-text'
import { cut, formatTable } from '../text-table'

export const SAMPLE_MAX = 1024
export const TALLY_MAX = 20_000

export interface LinePlace {
  file: string
  line: number
}

export interface KindRow {
  id: string
  level: number | undefined
  count: number
  first: LinePlace
  last: LinePlace
  template: string
  sample: string
  /** Order of first sight (rule 5's tie-break). */
  seen: number
}

/** A row as gathered: its source and when its last event came, for rule 7. */
interface TallyRow extends KindRow {
  source: string | undefined
  lastSeen: number
}

/** The miner's answer to which kind an id is now (rule 7); undefined: as it was. */
export type ResolveKind = (source: string | undefined, id: string) => string | undefined

export interface KindTally {
  /** Rules 1 to 3 and 6, one event at a time. */
  add(ref: KindRef, level: number | undefined, raw: string, at: LinePlace, source?: string): void
  /** The rows, merged kinds folded into the kinds they went into (rule 7) when `resolve` is given. */
  rows(resolve?: ResolveKind): KindRow[]
  /** Events of kinds past the bound (rule 6). */
  unlisted(): number
}

export function createKindTally(max = TALLY_MAX): KindTally {
  const byId = new Map<string, TallyRow>()
  let unlisted = 0
  let added = 0
  const first = (ref: KindRef, level: number | undefined, raw: string, at: LinePlace, source?: string): TallyRow => ({
    id: ref.id,
    level,
    count: 1,
    first: at,
    last: at,
    template: ref.template,
    sample: raw.length > SAMPLE_MAX ? raw.slice(0, SAMPLE_MAX) : raw,
    seen: byId.size,
    source,
    lastSeen: added,
  })
  return {
    add(ref, level, raw, at, source) {
      added++
      const row = byId.get(ref.id)
      if (row === undefined) {
        if (byId.size < max) byId.set(ref.id, first(ref, level, raw, at, source))
        else unlisted++
        return
      }
      row.count++
      row.last = at
      row.lastSeen = added
      row.template = ref.template
      if (level !== undefined && (row.level === undefined || level > row.level)) row.level = level
    },
    rows: (resolve) => {
      const rows = [...byId.values()]
      return (resolve === undefined ? rows : foldMerged(rows, resolve)).map(kindRow)
    },
    unlisted: () => unlisted,
  }
}

const kindRow = ({ source: _source, lastSeen: _lastSeen, ...row }: TallyRow): KindRow => row

/** Rule 7: rows whose kinds are one kind now, as one row. */
function foldMerged(rows: readonly TallyRow[], resolve: ResolveKind): TallyRow[] {
  const byKind = new Map<string, TallyRow>()
  for (const row of rows) {
    const id = resolve(row.source, row.id) ?? row.id
    const into = byKind.get(id)
    if (into === undefined) {
      byKind.set(id, { ...row, id })
      continue
    }
    into.count += row.count
    if (row.seen < into.seen) Object.assign(into, { seen: row.seen, first: row.first, sample: row.sample })
    if (row.lastSeen > into.lastSeen)
      Object.assign(into, { lastSeen: row.lastSeen, last: row.last, template: row.template })
    if (row.level !== undefined && (into.level === undefined || row.level > into.level)) into.level = row.level
  }
  return [...byKind.values()]
}

/** Rules 4 and 5. */
export function reportRows(rows: readonly KindRow[], minLevel: number | undefined): KindRow[] {
  const kept = minLevel === undefined ? [...rows] : rows.filter((r) => r.level !== undefined && r.level >= minLevel)
  return kept.sort((a, b) => b.count - a.count || a.seen - b.seen)
}

export interface KindsReport {
  files: string[]
  lines: number
  events: number
  kinds: KindRow[]
  /** Events of kinds past TALLY_MAX, not in `kinds`. */
  unlisted: number
}

const HEADER = ['ID', 'LEVEL', 'COUNT', 'FIRST', 'LAST', 'TEMPLATE'] as const
const TEMPLATE_COLUMN = HEADER.indexOf('TEMPLATE')
const SAMPLE_INDENT = '    e.g. '

const levelText = (level: number | undefined): string => (level === undefined ? '-' : levelLabel(level))

/** The table, each kind's sample under its row (its first line, cut to the width). */
export function describeKinds(report: KindsReport, width: number): string {
  const several = report.files.length > 1
  const place = (at: LinePlace): string => (several ? `${at.file}:${at.line}` : String(at.line))
  const summary = `${report.lines} line(s), ${report.events} event(s), ${report.kinds.length} kind(s)\n`
  if (report.kinds.length === 0) return summary
  const rows = report.kinds.map((k) => [
    k.id,
    levelText(k.level),
    String(k.count),
    place(k.first),
    place(k.last),
    k.template,
  ])
  const table = formatTable(HEADER, rows, width, TEMPLATE_COLUMN).split('\n')
  const out = [table[0] ?? '']
  report.kinds.forEach((kind, i) => {
    // A CRLF file's lines end in \r: shown, it would read as part of the message.
    const firstLine = (kind.sample.split('\n', 1)[0] ?? '').replace(/\r$/, '')
    out.push(table[i + 1] ?? '', SAMPLE_INDENT + cut(terminalText(firstLine), width - SAMPLE_INDENT.length))
  })
  const more =
    report.unlisted > 0 ? `(${report.unlisted} event(s) of kinds past the first ${TALLY_MAX} not listed)\n` : ''
  return `${summary}${out.join('\n')}\n${more}`
}

/** `--json`: one document; each kind without its tie-break order, with its level's name beside the number. */
export function kindsJson(report: KindsReport): string {
  const kinds = report.kinds.map(({ seen: _seen, ...kind }) => ({
    ...kind,
    levelName: kind.level === undefined ? undefined : levelLabel(kind.level),
  }))
  return `${JSON.stringify({ ...report, kinds }, null, 2)}\n`
}
