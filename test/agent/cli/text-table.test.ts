// The console commands' tables and times: what a user reads in `incidents` and `silence list`.
import { describe, expect, it } from 'vitest'
import { cut, formatTable, outputWidth, relativeTime, shortSpan } from '../../../agent/cli/text-table'

describe('times', () => {
  it('shows a span as its largest unit and the next', () => {
    expect(shortSpan(0)).toBe('0s')
    expect(shortSpan(12_400)).toBe('12s')
    expect(shortSpan(180_000)).toBe('3m')
    expect(shortSpan(200_000)).toBe('3m20s')
    expect(shortSpan(7_140_000)).toBe('1h59m')
    expect(shortSpan(7_200_000)).toBe('2h')
    expect(shortSpan(2 * 86_400_000 + 3 * 3_600_000 + 59_000)).toBe('2d3h')
  })

  it('says ago, in, or just now', () => {
    const now = 1_800_000_000_000
    expect(relativeTime(now - 180_000, now)).toBe('3m ago')
    expect(relativeTime(now + 7_200_000, now)).toBe('in 2h')
    expect(relativeTime(now - 400, now)).toBe('just now')
  })
})

describe('tables', () => {
  it('cuts with an ellipsis and folds white space', () => {
    expect(cut('short', 10)).toBe('short')
    expect(cut('a\nmulti  line title', 12)).toBe('a multi lin…')
  })

  it('lines columns up and cuts the flexible column to the width', () => {
    const table = formatTable(
      ['ID', 'TITLE', 'WHEN'],
      [
        ['a1', 'a title far too long for the width given', '3m ago'],
        ['b22', 'short', '1h ago'],
      ],
      30,
      1,
    )
    expect(table).toBe(
      ['ID   TITLE              WHEN', 'a1   a title far too…   3m ago', 'b22  short              1h ago', ''].join(
        '\n',
      ),
    )
    for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(30)
  })

  it('keeps the flexible column as wide as its header however narrow the width', () => {
    const table = formatTable(['ID', 'TITLE'], [['a1', 'some title']], 5, 1)
    expect(table).toBe('ID  TITLE\na1  some…\n')
  })

  it('uses the terminal width when stdout is a terminal, 120 otherwise', () => {
    expect(outputWidth({ columns: 80, write: () => true })).toBe(80)
    expect(outputWidth({ write: () => true })).toBe(120)
  })
})
