// When the incident files' journals are compacted: one test per rule of compaction.ts.
import { describe, expect, it } from 'vitest'
import { compactAtOpen, SLACK_LINES, writeMode } from '../../../agent/incidents/compaction'

describe('incident journal compaction (agent/incidents/compaction.ts)', () => {
  it('1. at open: past 2 lines per entry plus the slack', () => {
    expect(compactAtOpen(2 * 10 + SLACK_LINES, 10)).toBe(false)
    expect(compactAtOpen(2 * 10 + SLACK_LINES + 1, 10)).toBe(true)
  })

  it('2. on a write: when the file with the lines written would pass 4 per entry plus the slack', () => {
    expect(writeMode(4 * 10 + SLACK_LINES - 2, 3, 10)).toBe('compact')
  })

  it('3. otherwise the write is appended', () => {
    expect(writeMode(4 * 10 + SLACK_LINES - 3, 3, 10)).toBe('append')
    expect(writeMode(0, 1, 0)).toBe('append')
  })
})
