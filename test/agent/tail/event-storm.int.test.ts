// A file written thousands of times before the tailer gets round to adopting it: every write is a
// watch event for a path the tailer does not know yet. They used to queue one path job (a stat)
// each, and jobs run before any read, so under a write storm nothing was read for minutes. One
// queued job per path stands for all of them now.
import { closeSync, openSync, writeSync } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { createTailer } from '../../../agent/tail'
import { collect } from './helpers'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>()
  return { ...actual, stat: vi.fn(actual.stat) }
})

it('stats a path once per queued job, not once per write event, while it is not adopted yet', async () => {
  const dir = tempDir('tail-storm')
  const paths = [join(dir, 'a.log'), join(dir, 'b.log')]
  const tailer = await createTailer({ paths: join(dir, '*.log'), startAt: 'beginning' })
  const { seen } = collect(tailer)
  const stat = vi.mocked(fsp.stat)
  try {
    stat.mockClear()
    // Synchronous: the tailer cannot adopt either file before every write is done. Alternating
    // files, so the kernel cannot merge consecutive events into one. Each file its own first
    // bytes, or the second would be taken for a copy of the first.
    const fds = paths.map((path) => openSync(path, 'a'))
    const WRITES = 4000
    for (let i = 1; i <= WRITES; i++) {
      for (const [k, fd] of fds.entries())
        writeSync(fd, `file ${k} line ${String(i).padStart(6, '0')} ${'.'.repeat(40)}\n`)
    }
    for (const fd of fds) closeSync(fd)
    await pollUntil(`all ${2 * WRITES} lines`, () => seen.length === 2 * WRITES, { timeoutMs: 30_000 })
    const statsOfThem = stat.mock.calls.filter(([path]) => paths.includes(String(path))).length
    // A few: the first events' jobs and the ticks'. Thousands without coalescing.
    expect(statsOfThem).toBeLessThan(50)
  } finally {
    await tailer.close()
  }
}, 60_000)
