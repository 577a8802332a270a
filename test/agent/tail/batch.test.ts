import { describe, expect, it } from 'vitest'
import { batchLine, createChunkBatch, lineEndOffset } from '../../../agent/tail/batch'
import { createLineSplitter } from '../../../agent/tail/line-splitter'

const FILE = { fileId: '1:1', followId: 1, generation: 0, path: 'app.log' }

describe('LineBatch', () => {
  it('builds one line on demand, all of them on first access to lines, and the same objects after that', () => {
    const splitter = createLineSplitter(100, 4)
    splitter.push(Buffer.from('ab'), 100)
    const chunk = Buffer.from(`c\nd\ntoolong\n${'x'.repeat(1000)}`)
    const batch = createChunkBatch(FILE, splitter.push(chunk, 102), chunk, 102, 4)
    if (batch === undefined) throw new Error('no batch')
    expect(batch.lineCount).toBe(3)
    expect(batch.offset).toBe(114)
    const alone = batchLine(batch, 2)
    expect({ data: alone.data.toString(), offset: alone.offset, truncated: alone.truncated }).toEqual({
      data: 'tool',
      offset: 114,
      truncated: true,
    })
    expect(batch.lines.map((line) => [line.data.toString(), line.offset, line.truncated])).toEqual([
      ['abc', 104, false],
      ['d', 106, false],
      ['tool', 114, true],
    ])
    expect(batchLine(batch, 1)).toBe(batch.lines[1])
    expect([0, 1, 2].map((i) => lineEndOffset(batch, i))).toEqual([104, 106, 114])
  })

  it('serializes as its lines, not as the read buffer it points into', () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    chunk.write('one\ntwo\n', 0)
    const batch = createChunkBatch(FILE, createLineSplitter(0, 1024).push(chunk, 0), chunk, 0, 1024)
    const json = JSON.stringify(batch)
    expect(json.length).toBeLessThan(1000)
    expect(JSON.parse(json)).toMatchObject({ fileId: '1:1', offset: 8, lines: [{ offset: 4 }, { offset: 8 }] })
  })
})
