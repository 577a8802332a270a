// What the tailer promises at the edges of a file's and its own life: close() while reading waits on
// a full queue, a released file's checkpoint entry until its last line is committed, and read
// buffers that are reused only once their batch is committed whole.
import { appendFileSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTailer, type LineBatch } from '../../../agent/tail'
import {
  collect,
  expectEachOnceInOrder,
  useTailerScope,
  numbered,
  numberedRange,
  numberOf,
  type SeenLine,
} from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const { tempDir, tail } = useTailerScope()

function seenOf(batch: LineBatch, count = batch.lineCount): SeenLine[] {
  return batch.lines.slice(0, count).map((line) => ({
    fileId: batch.fileId,
    generation: batch.generation,
    path: batch.path,
    text: line.data.toString('latin1'),
    offset: line.offset,
    truncated: line.truncated,
  }))
}

function checkpointOffsets(path: string): Map<string, number> {
  const saved = JSON.parse(readFileSync(path, 'utf8')) as { files: { dev: string; ino: string; offset: number }[] }
  return new Map(saved.files.map((entry) => [`${entry.dev}:${entry.ino}`, entry.offset]))
}

describe('close()', () => {
  for (const syncReads of [false, true]) {
    it(`while reading is held by a full queue (syncReads ${syncReads}): it resolves, and a restart goes on at the first line not committed`, async () => {
      const dir = tempDir('close-busy')
      const file = join(dir, 'app.log')
      const checkpointPath = join(dir, 'checkpoint.json')
      writeFileSync(file, numberedRange('line', 1, 2000))
      const first = await createTailer({
        paths: file,
        startAt: 'beginning',
        checkpointPath,
        readChunkBytes: 1024,
        maxBufferedBatches: 1,
        syncReads,
      })
      const before: SeenLine[] = []
      for await (const batch of first) {
        before.push(...seenOf(batch, 3))
        await first.commit(batch, 3)
        break
      }
      // Reading went on ahead of the consumer until the queue was full, and waits there.
      await pollUntil('reading ahead of the consumer', () => (first.files()[0]?.readOffset ?? 0) > 1024)
      await first.close()
      expect(checkpointOffsets(checkpointPath).get(statFileId(file))).toBe(3 * numbered('line', 1).length)

      const second = await tail({ paths: file, checkpointPath, syncReads })
      const { seen } = collect(second)
      await pollUntil('lines 4..2000', () => seen.length >= 1997)
      expectEachOnceInOrder([...before, ...seen], 1, 2000)
    })
  }
})

function statFileId(path: string): string {
  const stats = statSync(path, { bigint: true })
  return `${stats.dev}:${stats.ino}`
}

describe('a released file', () => {
  it('stays in the checkpoint until its last line (the unterminated one too) is committed', async () => {
    const dir = tempDir('release-retained')
    const file = join(dir, 'app.log')
    const checkpointPath = join(dir, 'checkpoint.json')
    writeFileSync(file, '')
    const id = statFileId(file)
    const tailer = await tail({ paths: join(dir, '*.log'), checkpointPath })
    const batches: LineBatch[] = []
    const reading = (async () => {
      for await (const batch of tailer) batches.push(batch)
    })()
    appendFileSync(file, numberedRange('line', 1, 20) + 'line 000021 no newline')
    unlinkSync(file)
    await pollUntil('the deleted file released', () => tailer.stats().released === 1)
    const last = batches[batches.length - 1] as LineBatch
    expect(numberOf(last.lines[last.lineCount - 1]?.data.toString() ?? '')).toBe(21)

    await tailer.flush()
    expect(checkpointOffsets(checkpointPath).get(id)).toBe(0)
    for (const batch of batches.slice(0, -1)) await tailer.commit(batch)
    expect(checkpointOffsets(checkpointPath).get(id)).toBe(20 * numbered('line', 1).length)
    await tailer.commit(last)
    expect(checkpointOffsets(checkpointPath).has(id)).toBe(false)
    await tailer.close()
    await reading
  })
})

describe('reuseBuffers', () => {
  it('keeps a read buffer while its batch is only partly committed', async () => {
    const dir = tempDir('reuse-partial')
    const file = join(dir, 'app.log')
    writeFileSync(file, numberedRange('line', 1, 3000))
    const tailer = await tail({ paths: file, startAt: 'beginning', reuseBuffers: true, readChunkBytes: 1000 })
    const kept: LineBatch[] = []
    let lines = 0
    for await (const batch of tailer) {
      // All but its last line: the buffer holds a line not committed, so it must not be read into again.
      await tailer.commit(batch, batch.lineCount - 1)
      kept.push(batch)
      lines += batch.lineCount
      if (lines === 3000) break
    }
    // The lines are built only now, after every later read.
    const seen = kept.flatMap((batch) => seenOf(batch))
    expectEachOnceInOrder(seen, 1, 3000)
    expect(seen.every((line) => line.text === numbered('line', numberOf(line.text)).slice(0, -1))).toBe(true)
  })
})
