// When a journal of incident files is rewritten whole (compacted) rather than appended to, counted in
// lines against the entries the state it describes holds. Pure: the callers count and act.
//
//   1. At open: compacted when the file holds more than 2 lines per entry plus SLACK_LINES (a
//      restart after a long run starts from a small file; a short one does not rewrite it).
//   2. On a write: compacted when the file, with the lines being written, would hold more than 4
//      lines per entry plus SLACK_LINES; the compacted file then holds what the write carried.
//   3. Otherwise the write is appended.
//
// The slack keeps a small state from being rewritten every few steps; the factor keeps the file
// within a few times the state, so a rewrite costs O(state) once per O(state) appends.

/** Lines a journal may hold past its per-entry allowance before it is compacted. */
export const SLACK_LINES = 1000

/** Rule 1. */
export function compactAtOpen(lines: number, entries: number): boolean {
  return lines > 2 * entries + SLACK_LINES
}

/** Rules 2 and 3: 'compact' or 'append' for a write of `adding` lines. */
export function writeMode(lines: number, adding: number, entries: number): 'compact' | 'append' {
  return lines + adding > 4 * entries + SLACK_LINES ? 'compact' : 'append'
}
