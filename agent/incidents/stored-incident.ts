// An engine's open incident as the incident state keeps it, and back: the snapshot's fields as they
// are, and of its lines only the last one's text (censored already: the engine censors a line before
// it keeps it), parsed again when a new engine is given the incident back. A giant line is not kept:
// the incident's title stands in for it (what the messages of a restored incident render from).
import type { AlertLine, IncidentSnapshot } from '../../alerts'
import type { StoredIncident } from './types'
import { keptLine, lineOfKept } from './kept-line'

/** Longest line text kept per incident; the state file is rewritten whole, so it must stay small. */
export const MAX_STORED_LINE = 4096

function storedLine(line: AlertLine, title: string): StoredIncident['line'] {
  if (line.raw.length <= MAX_STORED_LINE) return keptLine(line)
  return { raw: JSON.stringify({ level: line.level, msg: title }), format: 'json', source: line.source }
}

export function storedIncident(incident: IncidentSnapshot): StoredIncident {
  const { firstLine: _first, lastLine, ...snapshot } = incident
  return { snapshot, line: storedLine(lastLine, incident.title) }
}

export function restoredSnapshot(stored: StoredIncident): IncidentSnapshot {
  const line = lineOfKept(stored.line)
  return { ...stored.snapshot, firstLine: line, lastLine: line }
}
