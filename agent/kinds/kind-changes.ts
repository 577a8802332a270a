// What of a kind is written at a flush, against what was last written of it. Pure: the store keeps
// a mark per kind and acts on the answer.
//
//   1. A kind never written (or written before the mark was dropped) is written whole.
//   2. A kind whose template, aliases, level, hosts, incident, last resolve, learned or paged mark changed
//      is written whole: those change seldom (a generalised template, a new host, a resolve). What a
//      `kind: new` rule counts (pending) is not looked at: the store writes it as the rule decides.
//   3. Else a kind whose count or last-seen time moved is written as its counts: count, last seen,
//      and the hourly buckets from the last one written on (earlier buckets cannot have moved).
//   4. Else nothing is written of it.
import type { HourlyCounts, KindEntry } from '../../alerts/kinds/types'

/** What was last written of a kind; fields kept by reference, so a mark costs no copy of the template. */
export interface WrittenMark {
  template: string
  aliases: number
  level: number | undefined
  hosts: string
  incident: string | undefined
  lastResolved: number | undefined
  learned: boolean
  paged: boolean | undefined
  count: number
  lastSeen: number
  /** The hour of the last hourly bucket written; undefined when there was none. */
  lastHour: number | undefined
}

export type KindChange = { write: 'whole' } | { write: 'counts'; tail: HourlyCounts } | { write: 'nothing' }

const hostsKey = (hosts: readonly string[]): string => hosts.join('\n')

export function markOf(entry: KindEntry): WrittenMark {
  return {
    template: entry.template,
    aliases: entry.aliases.length,
    level: entry.level,
    hosts: hostsKey(entry.hosts),
    incident: entry.incident,
    lastResolved: entry.lastResolved,
    learned: entry.learned,
    paged: entry.paged,
    count: entry.count,
    lastSeen: entry.lastSeen,
    lastHour: entry.hourly[entry.hourly.length - 1]?.[0],
  }
}

function describedAlike(entry: KindEntry, mark: WrittenMark): boolean {
  return (
    entry.template === mark.template &&
    entry.aliases.length === mark.aliases &&
    entry.level === mark.level &&
    entry.incident === mark.incident &&
    entry.lastResolved === mark.lastResolved &&
    entry.learned === mark.learned &&
    entry.paged === mark.paged
  )
}

/** Rules 1-4. */
export function changeOf(entry: KindEntry, mark: WrittenMark | undefined): KindChange {
  if (mark === undefined) return { write: 'whole' }
  const moved = entry.count !== mark.count || entry.lastSeen !== mark.lastSeen
  // A host is added only with a line (or a fleet's counts): its list is joined only for a kind that moved.
  if (!describedAlike(entry, mark) || (moved && hostsKey(entry.hosts) !== mark.hosts)) return { write: 'whole' }
  if (!moved) return { write: 'nothing' }
  const from = mark.lastHour
  const tail = from === undefined ? entry.hourly : entry.hourly.filter(([hour]) => hour >= from)
  return { write: 'counts', tail }
}
