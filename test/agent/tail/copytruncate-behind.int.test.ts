// Copy-and-truncate while the tailer is behind: the file is truncated and rewritten past the
// offset already read before the tailer looks again. Lines only in the copy must come from the copy,
// and the rewritten file must be read from 0, so each line comes out once. Repeated because the
// race it guards is timing-dependent (it failed 3 times in 48 runs under load before the fix).
import { closeSync, copyFileSync, openSync, renameSync, truncateSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createTailer } from '../../../agent/tail'
import { collect, expectEachOnceInOrder, makeTempDir, numbered, waitFor } from './helpers'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

for (const reuseBuffers of [true, false]) {
  for (let attempt = 1; attempt <= 6; attempt++) {
    it(`no line lost or repeated when the file is rewritten past the read offset (reuseBuffers ${reuseBuffers}, run ${attempt})`, async () => {
      const { dir, cleanup } = makeTempDir('copytruncate-behind')
      cleanups.push(cleanup)
      const file = join(dir, 'app.log')
      writeFileSync(file, '')
      const tailer = await createTailer({ paths: join(dir, '*.log'), readChunkBytes: 1024, reuseBuffers, pollIntervalMs: 25 })
      cleanups.push(() => tailer.close())
      const { seen } = collect(tailer)
      let fd = openSync(file, 'a')
      let n = 0
      const write = (count: number): void => {
        let text = ''
        for (let i = 0; i < count; i++) text += numbered('line', ++n)
        writeSync(fd, text)
      }
      for (let round = 1; round <= 3; round++) {
        write(100)
        await waitFor(() => seen.length >= n, `${n} lines read`)
        write(60)
        copyFileSync(file, join(dir, `app__rotated-${round}.log`))
        truncateSync(file, 0)
        write(40)
      }
      await waitFor(() => seen.length >= n, `${n} lines`)
      renameSync(file, join(dir, 'app.log.1'))
      write(20)
      closeSync(fd)
      fd = openSync(file, 'a')
      write(50)
      closeSync(fd)
      await waitFor(() => seen.length >= n, `${n} lines`)
      expectEachOnceInOrder(seen, 1, n)
    })
  }
}
