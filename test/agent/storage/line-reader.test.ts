// The streaming reader under the journal replay and the spill: complete lines only, from an
// offset, across chunk boundaries, and lines appended after it reached the end.
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { forEachLine, openLineReader } from '../../../agent/storage/line-reader'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('outbox-lines')

describe('outbox line reader', () => {
  it('returns complete lines with their end offsets, leaves a torn tail, sees later appends', () => {
    const file = join(dir, 'a.jsonl')
    const long = 'x'.repeat(200_000) // longer than one read chunk
    writeFileSync(file, `one\n${long}\ntwo\ntor`)
    const reader = openLineReader(file, 4)
    expect(reader.next()).toEqual({ line: long, end: 4 + long.length + 1 })
    expect(reader.next()?.line).toBe('two')
    expect(reader.next()).toBeUndefined()
    appendFileSync(file, 'n\n')
    expect(reader.next()?.line).toBe('torn')
    expect(reader.offset).toBe(4 + long.length + 1 + 4 + 5)
    reader.close()
  })

  it('forEachLine treats a missing file as empty', () => {
    const seen: string[] = []
    forEachLine(join(dir, 'missing.jsonl'), (line) => seen.push(line))
    expect(seen).toEqual([])
  })
})
