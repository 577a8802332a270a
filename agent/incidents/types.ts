// The incident state's records, as other folders and the files here import them (a leaf: imports
// only types from below).
import type { IncidentSnapshot } from '../../alerts'
import type { LineFormat } from '../config/types'
import type { KeptLine } from './kept-line'

export interface PagedIncident {
  rule: string
  /** When the last notice (firing or repeat) went to the outbox. */
  notifiedAt: number
  lastSeen: number
  /** The incident as the engine had it (absent in files of earlier versions: those are only not re-paged). */
  incident?: StoredIncident
}

/** An open incident, JSON-safe: the engine's snapshot without its lines, and its last line as read (censored). */
export interface StoredIncident {
  snapshot: Omit<IncidentSnapshot, 'firstLine' | 'lastLine'>
  line: KeptLine
}

export interface PendingIncident {
  rule: string
  raw: string
  source: string
  format: LineFormat
  /** A container's fields of the line (kept-line.ts); absent in earlier files and for other lines. */
  fields?: Record<string, unknown>
  since: number
}
