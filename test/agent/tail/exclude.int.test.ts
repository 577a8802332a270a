// An excluded file is never opened: not at startup, not when it appears later, not when a rotation
// renames the file being read to an excluded name (its rest is still read through the open handle).
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Tailer } from '../../../agent/tail'
import { collect, expectEachOnceInOrder, numbered, numberedRange, useTailerScope } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const { tempDir, tail } = useTailerScope()

/** Every path files() ever showed, sampled on each poll of waitFor; one that should never show fails at once. */
function watchPaths(
  tailer: Tailer,
  excluded: (path: string) => boolean,
): { paths: Set<string>; sample: () => boolean } {
  const paths = new Set<string>()
  return {
    paths,
    sample() {
      for (const file of tailer.files()) {
        if (file.path === undefined) continue
        if (excluded(file.path)) throw new Error(`an excluded file is followed: ${file.path}`)
        paths.add(file.path)
      }
      return true
    },
  }
}

describe('exclude', () => {
  it("keeps rotated and other apps' files out, at startup and when they appear later", async () => {
    const dir = tempDir('exclude')
    const other = join(dir, 'other')
    mkdirSync(other)
    writeFileSync(join(dir, 'app.log'), numbered('app', 1))
    writeFileSync(join(dir, 'app.log.1'), numbered('rotated', 900_001))
    writeFileSync(join(dir, 'app.log.2.gz'), numbered('gzipped', 900_002))
    writeFileSync(join(other, 'web.log'), numbered('other-app', 900_003))
    const tailer = await tail({
      paths: [join(dir, '*'), join(dir, '*/*.log')],
      exclude: ['*.gz', '*.[0-9]', join(other, '*.log')],
      startAt: 'beginning',
    })
    const { seen } = collect(tailer)
    const shown = watchPaths(tailer, (path) => !path.endsWith('app.log') && !path.endsWith('worker.log'))
    await pollUntil('the first line of app.log', () => shown.sample() && seen.length >= 1)

    // Files that appear while running: the excluded ones first, then one that is read.
    writeFileSync(join(dir, 'app.log.3'), numbered('rotated', 900_004))
    writeFileSync(join(dir, 'app.log.4.gz'), numbered('gzipped', 900_005))
    writeFileSync(join(other, 'api.log'), numbered('other-app', 900_006))
    writeFileSync(join(dir, 'worker.log'), numbered('worker', 2))
    appendFileSync(join(dir, 'app.log.1'), numbered('rotated', 900_007))
    appendFileSync(join(dir, 'app.log'), numbered('app', 3))
    await pollUntil('the lines of app.log and worker.log', () => shown.sample() && seen.length >= 3)

    expectEachOnceInOrder(seen, 1, 3)
    expect(new Set(seen.map((line) => line.path))).toEqual(new Set([join(dir, 'app.log'), join(dir, 'worker.log')]))
    expect([...shown.paths].sort()).toEqual([join(dir, 'app.log'), join(dir, 'worker.log')])
  })

  it('does not read the .1 a rename rotation makes, and reads the rest of the renamed file once', async () => {
    const dir = tempDir('exclude-rotation')
    const log = join(dir, 'app.log')
    writeFileSync(log, numberedRange('line', 1, 3))
    const tailer = await tail({ paths: join(dir, 'app.log*'), exclude: '*.1', startAt: 'beginning' })
    const { seen } = collect(tailer)
    const shown = watchPaths(tailer, (path) => path.endsWith('.1'))
    await pollUntil('lines 1..3', () => shown.sample() && seen.length >= 3)

    renameSync(log, `${log}.1`)
    // The app still writes to the file it has open until it reopens its log.
    appendFileSync(`${log}.1`, numberedRange('line', 4, 5))
    writeFileSync(log, numberedRange('line', 6, 8))
    await pollUntil('lines 4..8', () => shown.sample() && seen.length >= 8)
    await pollUntil('the renamed file released', () => shown.sample() && tailer.stats().released >= 1)

    expectEachOnceInOrder(seen, 1, 8)
    expect(shown.paths.has(`${log}.1`)).toBe(false)
    expect(seen.every((line) => line.path !== `${log}.1`)).toBe(true)
  })
})
