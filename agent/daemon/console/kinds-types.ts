// What GET /api/kinds answers (issue #29 item 5) and what the console reads the kinds through. The
// daemon hands the console a KindsReader over its kind table; the view (kinds-view.ts) is made from
// the table's entries at each request, so the console keeps no copy of its own.
import type { KindEntry } from '../../../alerts/kinds/types'

export type { KindEntry }

/** The running agent's kind table, as the console reads it. */
export interface KindsReader {
  /** Every kind the table holds now (all sources). */
  entries(): Iterable<KindEntry>
}

/** One kind as the console and `logx-agent kinds --live` show it. */
export interface KindView {
  id: string
  source: string | undefined
  template: string
  level: number | undefined
  count: number
  firstSeen: number
  lastSeen: number
  /** First seen less than 24 hours ago. */
  new: boolean
  /** Lines per hour over the last 24 hours, oldest first; the last one is the hour that holds now. */
  hourly: number[]
  hosts: string[]
  /** The incident key this kind last opened, if any. */
  incident: string | undefined
  sample: string
}

export type KindsSort = 'count' | 'new'

/** GET /api/kinds?sort=count|new&limit=N&source=NAME, every part optional. */
export interface KindsQuery {
  sort: KindsSort
  limit: number
  source: string | undefined
}
