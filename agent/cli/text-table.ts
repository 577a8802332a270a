// Plain-text tables and times for the console commands (`incidents`, `silence list`). Pure: the
// width and the clock are arguments, so the tests pin both. Cells are shown through terminalText:
// a title from a log line may hold terminal escapes.
import { terminalText } from './terminal-text'

/** Width when stdout is not a terminal (a pipe, a file, a test): wide enough for most titles. */
export const DEFAULT_WIDTH = 120

/** The terminal's width when stdout is one, else DEFAULT_WIDTH. */
export function outputWidth(stdout: unknown): number {
  const columns = (stdout as { columns?: unknown }).columns
  return typeof columns === 'number' && columns >= 40 ? columns : DEFAULT_WIDTH
}

/** `text` cut to `max` characters, the cut marked with an ellipsis. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  return max <= 1 ? flat.slice(0, max) : `${flat.slice(0, max - 1).trimEnd()}…`
}

/**
 * Rows under a header, columns two spaces apart. Column `flex` (the title, a comment) takes what the
 * others leave of `width` and is cut to it; it keeps at least its header's width.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  flex: number,
): string {
  const all = [header, ...rows].map((row) => row.map(terminalText))
  const widths = header.map((_, c) => Math.max(...all.map((row) => (row[c] ?? '').length)))
  const others = widths.reduce((sum, w, c) => (c === flex ? sum : sum + w + 2), 0)
  const flexWidth = Math.min(widths[flex] ?? 0, Math.max((header[flex] ?? '').length, width - others))
  widths[flex] = flexWidth
  const line = (row: readonly string[]): string =>
    row
      .map((cell, c) => (c === flex ? cut(cell, flexWidth) : cell).padEnd(c === row.length - 1 ? 0 : (widths[c] ?? 0)))
      .join('  ')
      .trimEnd()
  return `${all.map(line).join('\n')}\n`
}

const UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
]

/** A span as its largest unit and the next one: `3m`, `1h59m`, `2d3h`, `12s`. */
export function shortSpan(ms: number): string {
  const abs = Math.max(0, Math.round(Math.abs(ms) / 1000) * 1000)
  const first = UNITS.findIndex(([, size]) => abs >= size)
  if (first === -1) return '0s'
  const [unit, size] = UNITS[first] as readonly [string, number]
  const whole = Math.floor(abs / size)
  const next = UNITS[first + 1]
  const rest = next === undefined ? 0 : Math.floor((abs - whole * size) / next[1])
  return rest > 0 && next !== undefined && unit !== 's' ? `${whole}${unit}${rest}${next[0]}` : `${whole}${unit}`
}

/** `3m ago`, `just now`, `in 2h` for a moment relative to `now`. */
export function relativeTime(at: number, now: number): string {
  const diff = now - at
  if (Math.abs(diff) < 1000) return 'just now'
  return diff > 0 ? `${shortSpan(diff)} ago` : `in ${shortSpan(-diff)}`
}

const pad2 = (n: number): string => String(n).padStart(2, '0')

/** Local date and time to the minute: `2031-01-02 14:03`. */
export function formatClock(at: number): string {
  const d = new Date(at)
  const date = `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`
  return `${date} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`
}
