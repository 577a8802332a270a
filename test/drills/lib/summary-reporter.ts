// Prints the drills' summary table at the end of the run: drill, events, lost, duplicated, peak RSS,
// time, and the outcome of the test that measured it.
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import type { DrillRow } from './report'

interface Entry {
  row: DrillRow
  state: string
}

function cell(value: string | number | undefined): string {
  return value === undefined ? '-' : String(value)
}

export function formatSummary(entries: readonly Entry[]): string {
  const header = ['drill', 'events', 'lost', 'duplicated', 'peak RSS MB', 'time s', 'result', 'notes']
  const rows = entries.map(({ row, state }) => [
    row.drill,
    `${row.events} ${row.unit}`,
    cell(row.lost),
    cell(row.duplicated),
    cell(row.peakRssMb),
    (row.timeMs / 1000).toFixed(1),
    state,
    row.notes ?? '',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

export default class DrillSummaryReporter implements Reporter {
  private readonly entries: Entry[] = []

  onTestCaseResult(testCase: TestCase): void {
    const row = testCase.meta().drill
    if (row !== undefined) this.entries.push({ row, state: testCase.result().state })
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>): void {
    if (this.entries.length === 0) return
    process.stdout.write(`\nDrill summary\n${formatSummary(this.entries)}\n\n`)
  }
}
