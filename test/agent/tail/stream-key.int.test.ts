// `Tailer.streamOf`: the copy that continues a generation after copy-and-truncate shares its stream
// key, the file's next generation has another; `release` lets a batch's buffer be read into again
// without committing it. Multi-line events (agent/events/) rely on both.
import { closeSync, copyFileSync, openSync, truncateSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { numbered, useTailerScope } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const { tempDir, tail } = useTailerScope()

describe('stream keys', () => {
  it("a copy-and-truncate copy continues its generation's stream; the next generation starts another", async () => {
    const dir = tempDir('stream-key')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, '*.log'), readChunkBytes: 1024, reuseBuffers: true })
    const seen: { key: string | undefined; path: string | undefined; generation: number; lines: number }[] = []
    let lines = 0
    void (async () => {
      for await (const batch of tailer) {
        seen.push({
          key: tailer.streamOf(batch),
          path: batch.path,
          generation: batch.generation,
          lines: batch.lineCount,
        })
        lines += batch.lineCount
        // Nothing committed: the buffers go back all the same.
        tailer.release(batch)
      }
    })()
    const fd = openSync(file, 'a')
    let n = 0
    const write = (count: number): void => {
      let text = ''
      for (let i = 0; i < count; i++) text += numbered('line', ++n)
      writeSync(fd, text)
    }
    write(100)
    await pollUntil(`${n} lines read`, () => lines >= n)
    // Lines the tailer has not read when the rotation happens: only the copy still has them.
    write(60)
    copyFileSync(file, join(dir, 'app__rotated.log'))
    truncateSync(file, 0)
    write(40)
    closeSync(fd)
    await pollUntil(`${n} lines`, () => lines >= n)
    const original = seen[0]?.key
    expect(original).toMatch(/:0$/)
    const fromCopy = seen.filter((s) => s.path?.endsWith('app__rotated.log'))
    expect(fromCopy.length).toBeGreaterThan(0)
    expect(new Set(fromCopy.map((s) => s.key))).toEqual(new Set([original]))
    const next = seen.filter((s) => s.path?.endsWith('app.log') && s.generation === 1)
    expect(next.length).toBeGreaterThan(0)
    expect(next.every((s) => s.key !== original && s.key?.endsWith(':1'))).toBe(true)
  })
})
