// Per-file order through rotations that land while the tailer is far behind: the rest of the old
// content (the renamed file, or the copy of a truncated one) comes before the new content, even
// when the copy is found after the truncation. The consumer holds back, so the tailer is stuck
// with most of the file unread when the file rotates. And a copy found a whole tick after the
// truncation was noticed, as under a flood of events, when discovery polls.
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  openSync,
  renameSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createTailer, type LineBatch } from '../../../agent/tail'
import { collect, numberedRange, numberOf } from './helpers'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

async function runBehind(
  lines: number,
  rotate: (file: string, dir: string, next: number) => number,
): Promise<number[]> {
  const dir = tempDir('tail-order')
  const file = join(dir, 'app.log')
  appendFileSync(file, numberedRange('line', 1, lines))
  const tailer = await createTailer({
    paths: join(dir, '*.log'),
    startAt: 'beginning',
    readChunkBytes: 4096,
    maxBufferedBatches: 2,
    pollIntervalMs: 50,
  })
  const numbers: number[] = []
  const iterator = tailer[Symbol.asyncIterator]()
  const take = async (): Promise<void> => {
    const { value, done } = await iterator.next()
    if (done === true) return
    const batch = value as LineBatch
    for (const line of batch.lines) numbers.push(numberOf(line.data.toString('latin1')))
    await tailer.commit(batch)
  }
  try {
    await take()
    // Stuck on a full queue, a few KB into the file.
    const last = rotate(file, dir, lines + 1)
    for (;;) {
      await take()
      if (numbers.length >= last) break
    }
    await pollUntil('the tailer idle', () =>
      tailer.files().every((f) => f.phase === 'parked' || f.readOffset >= f.size),
    )
    return numbers
  } finally {
    await tailer.close()
  }
}

const ascendingOnce = (numbers: number[], last: number): void => {
  const wrong = numbers.findIndex((n, i) => n !== i + 1)
  expect(wrong === -1 ? 'in order' : `${numbers[wrong]} at ${wrong + 1} after ${numbers[wrong - 1]}`).toBe('in order')
  expect(numbers.length).toBe(last)
}

it("reads the rest of a copy-and-truncate copy before the truncated file's new lines", async () => {
  const numbers = await runBehind(20_000, (file, dir, next) => {
    copyFileSync(file, join(dir, 'app__1.log'))
    truncateSync(file, 0)
    appendFileSync(file, numberedRange('line', next, next + 4999))
    return next + 4999
  })
  ascendingOnce(numbers, 25_000)
}, 60_000)

it('reads the rest of a renamed file before the new file at its path', async () => {
  // More than two read turns (4 MB each): the new file is found while the renamed one still has
  // a turn or more to go.
  const numbers = await runBehind(200_000, (file, dir, next) => {
    renameSync(file, join(dir, 'app.log.1'))
    appendFileSync(file, numberedRange('line', next, next + 4999))
    return next + 4999
  })
  ascendingOnce(numbers, 205_000)
}, 60_000)

it('waits a whole tick for the copy: one found just after the first tick still comes before the new lines', async () => {
  const dir = tempDir('tail-late-copy')
  const file = join(dir, 'app.log')
  writeFileSync(file, '')
  const tailer = await createTailer({ paths: join(dir, '*.log'), readChunkBytes: 1024, pollIntervalMs: 200 })
  const fd = openSync(file, 'a')
  try {
    const { seen } = collect(tailer)
    writeSync(fd, numberedRange('line', 1, 100))
    await pollUntil('100 lines', () => seen.length >= 100)
    // Lines the tailer has not read, then the truncation, in one go; the copy holding them comes later.
    writeSync(fd, numberedRange('line', 101, 160))
    truncateSync(file, 0)
    writeSync(fd, numberedRange('line', 161, 200))
    await pollUntil('the truncation noticed', () => tailer.stats().truncations === 1)
    const ticks = tailer.stats().ticks
    await pollUntil('a tick since', () => tailer.stats().ticks > ticks)
    writeSync(fd, numberedRange('line', 201, 210))
    // Made whole elsewhere and renamed in, so it is found complete.
    writeFileSync(join(dir, 'copy.tmp'), numberedRange('line', 1, 160))
    renameSync(join(dir, 'copy.tmp'), join(dir, 'app__rotated.log'))
    await pollUntil('210 lines', () => seen.length >= 210)
    ascendingOnce(
      seen.map((line) => numberOf(line.text)),
      210,
    )
  } finally {
    closeSync(fd)
    await tailer.close()
  }
})
