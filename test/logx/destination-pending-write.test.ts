// fatal (and the exit flush) on an asynchronous file destination while an earlier write is pending.
// sonic-boom hands async writes to libuv's thread pool, where they can neither be waited for nor
// taken back: flushSync() then wrote the later lines first, and a process that died before the pool
// ran the write lost the earlier ones. File destinations now write behind on the main thread, so
// nothing is in flight when flushSync() runs. The pool is kept busy here so that a write handed to
// it cannot have run by the time the file is read: without the fix this fails every time.
import { pbkdf2 } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import logx from 'logx'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir'

function tempFile(name: string): string {
  const dir = tempDir('pending')
  return join(dir, name)
}

function seqs(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { seq: number }).seq)
}

/** Occupies every thread of libuv's pool for a while; resolves when they are free again. */
function busyThreadPool(): Promise<unknown> {
  const size = Number(process.env.UV_THREADPOOL_SIZE ?? 4)
  return Promise.all(
    Array.from(
      { length: size },
      () => new Promise((resolve) => pbkdf2('logx', 'salt', 200_000, 64, 'sha512', resolve)),
    ),
  )
}

describe('asynchronous file destination with a write pending', () => {
  it('fatal writes every earlier line, in order, before it returns', async () => {
    const file = tempFile('fatal.log')
    const dest = logx.destination({ dest: file, sync: false })
    const logger = logx(dest)
    const pool = busyThreadPool()
    logger.info({ seq: 0 }, 'starts a write')
    for (let seq = 1; seq < 100; seq++) logger.info({ seq }, 'buffered behind it')
    logger.fatal({ seq: 100 }, 'final words')
    expect(seqs(file)).toEqual(Array.from({ length: 101 }, (_, i) => i))
    await pool
    dest.end()
  })

  it('the scheduled write that follows a flushSync writes nothing twice, and flush(cb) still waits for the lines', async () => {
    const file = tempFile('after.log')
    const dest = logx.destination({ dest: file, sync: false })
    const logger = logx(dest)
    logger.info({ seq: 0 }, 'one')
    dest.flushSync()
    logger.info({ seq: 1 }, 'two')
    await new Promise<void>((resolve, reject) => logger.flush((err) => (err ? reject(err) : resolve())))
    expect(seqs(file)).toEqual([0, 1])
    dest.end()
  })
})
