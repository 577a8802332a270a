// frame-filter.ts: which syslog frames are dropped before parsing, one test per rule.
import { describe, expect, it } from 'vitest'
import { mayPage, priorityOfBytes } from '../../../agent/intake/syslog/frame-filter'
import { readPriority } from '../../../agent/intake/syslog/message'

const bytes = (text: string) => Buffer.from(text, 'latin1')
const ERROR = 50

describe('syslog frame filter', () => {
  it('rule 1: a valid PRI gives the level; below the lowest is dropped, at or above kept', () => {
    expect(mayPage(bytes('<14>1 - h app - - - served'), 0, 26, ERROR)).toBe(false)
    expect(mayPage(bytes('<11>1 - h app - - - failed'), 0, 26, ERROR)).toBe(true)
    expect(mayPage(bytes('<8>kernel panic'), 0, 15, ERROR)).toBe(true)
    // Within a larger buffer: only [start, end) is read.
    const chunk = bytes('<11>x\n<14>y\n')
    expect(mayPage(chunk, 6, 11, ERROR)).toBe(false)
    expect(mayPage(chunk, 0, 5, ERROR)).toBe(true)
    // The same grammar as the parser's readPriority.
    for (const text of ['<0>a', '<191>a', '<192>a', '<01>a', '<1234>a', '<>a', '<1a>a', '<13', 'x<13>a'])
      expect(priorityOfBytes(bytes(text), 0, text.length), text).toBe(readPriority(text)?.priority)
  })

  it('rule 2: a frame without a readable PRI is kept whatever the lowest level', () => {
    for (const text of ['plain text', '<999>1 - - - - - x', '<12', '', '<1x>y'])
      expect(mayPage(bytes(text), 0, text.length, 60), text).toBe(true)
    // A PRI cut by the frame's end is not read past it.
    expect(mayPage(bytes('<14>'), 0, 3, 60)).toBe(true)
  })
})
