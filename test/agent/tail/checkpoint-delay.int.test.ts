import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTailer, TailErrorCodes, type LineBatch } from '../../../agent/tail'
import { firstBatch } from './helpers'
import { tempDir } from '../../helpers/temp-dir'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('checkpointDelayMs', () => {
  it('rejects a negative delay', async () => {
    await expect(createTailer({ paths: 'x.log', checkpointDelayMs: -1 })).rejects.toMatchObject({
      code: TailErrorCodes.INVALID_OPTION,
      path: 'checkpointDelayMs',
    })
  })

  it('commits made within the delay share one write, and each resolves once its offset is on disk', async () => {
    const dir = tempDir('tail-delay')
    const file = join(dir, 'app.log')
    const checkpointPath = join(dir, 'tail.json')
    writeFileSync(file, Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n') + '\n')
    // Small reads: several batches.
    const tailer = await createTailer({
      paths: file,
      startAt: 'beginning',
      checkpointPath,
      checkpointDelayMs: 50,
      readChunkBytes: 4096,
      reuseBuffers: true,
      pollIntervalMs: 25,
    })
    cleanups.push(() => tailer.close())
    const batches: LineBatch[] = []
    let lines = 0
    for await (const batch of tailer) {
      batches.push(batch)
      lines += batch.lines.length
      if (lines === 2000) break
    }
    expect(batches.length).toBeGreaterThan(2)
    const promises = batches.map((batch) => tailer.commit(batch))
    // One delayed write serves every commit made before it starts.
    expect(new Set(promises).size).toBe(1)
    await Promise.all(promises)
    const saved = JSON.parse(readFileSync(checkpointPath, 'utf8')) as { files: { offset: number }[] }
    expect(saved.files.map((entry) => entry.offset)).toEqual([(batches[batches.length - 1] as LineBatch).offset])
  })

  it('a delayed write that comes due after close() does not replace the last checkpoint with one without the files', async () => {
    const dir = tempDir('tail-delay-close')
    const file = join(dir, 'app.log')
    const checkpointPath = join(dir, 'tail.json')
    writeFileSync(file, 'first line\nsecond line\n')
    const tailer = await createTailer({ paths: file, startAt: 'beginning', checkpointPath, checkpointDelayMs: 50 })
    const batch = await firstBatch(tailer)
    // The commit's write is due in 50 ms; the agent stops before that (SIGTERM right after a page).
    const committed = tailer.commit(batch)
    await tailer.close()
    await committed
    const saved = JSON.parse(readFileSync(checkpointPath, 'utf8')) as { files: { path: string; offset: number }[] }
    expect(saved.files.map((entry) => [entry.path, entry.offset])).toEqual([[file, 23]])
  })
})
