// Lines reach the tailer by file events alone: the scheduler's tick, which would read every file
// anyway, is an hour away in these tests. Each case is a way a watch can go stale: a directory that
// appears after start, a file replaced under its name, a symlink whose target a container runtime
// replaces (the symlink's own directory sees nothing of that), a log directory made after start.
// A new file's first write is over the 256 bytes the tailer reads of its head to tell it from a
// copy, so that needs no tick either.
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TailerOptions } from '../../../agent/tail'
import { collect, numbered, numberedRange, useTailerScope } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const { tempDir, tail } = useTailerScope()
const NO_TICK: Partial<TailerOptions> = { pollIntervalMs: 3_600_000, startAt: 'beginning' }

const texts = (seen: ReturnType<typeof collect>['seen']): string[] => seen.map((line) => line.text)
/** Lines from..to as the tailer hands them out, without their `\n`. */
const lines = (tag: string, from: number, to: number): string[] => numberedRange(tag, from, to).split('\n').slice(0, -1)

describe('file events, with no tick to fall back on', () => {
  it('reads appends, and a file in a directory made after start', async () => {
    const dir = tempDir('events-subdir')
    mkdirSync(join(dir, 'a'))
    writeFileSync(join(dir, 'a', 'app.log'), numbered('a', 1))
    const { seen } = collect(await tail({ ...NO_TICK, paths: [join(dir, '*', 'app.log')] }))
    await pollUntil('the line present at start', () => seen.length === 1)

    appendFileSync(join(dir, 'a', 'app.log'), numbered('a', 2))
    await pollUntil('an appended line', () => seen.length === 2)

    mkdirSync(join(dir, 'b'))
    writeFileSync(join(dir, 'b', 'app.log'), numberedRange('b', 3, 8))
    await pollUntil('the first lines of a file in a new directory', () => seen.length === 8)
    appendFileSync(join(dir, 'b', 'app.log'), numbered('b', 9))
    await pollUntil('a line appended to it', () => seen.length === 9)

    expect(texts(seen)).toEqual([...lines('a', 1, 2), ...lines('b', 3, 9)])
  })

  it('follows a file replaced under its name (rename over it), then its appends', async () => {
    const dir = tempDir('events-replaced')
    const path = join(dir, 'app.log')
    writeFileSync(path, numbered('old', 1))
    const { seen } = collect(await tail({ ...NO_TICK, paths: [path] }))
    await pollUntil("the old file's line", () => seen.length === 1)

    writeFileSync(join(dir, 'app.log.new'), numberedRange('new', 2, 7))
    renameSync(join(dir, 'app.log.new'), path)
    await pollUntil("the replacing file's lines", () => seen.length === 7)
    // The watch of the old file went with its name: this write is seen by the new file's own.
    appendFileSync(path, numbered('new', 8))
    await pollUntil('a line appended to the replacing file', () => seen.length === 8)
    expect(texts(seen)).toEqual([...lines('old', 1, 1), ...lines('new', 2, 8)])
  })

  it('follows a symlink to a file elsewhere, through the replacement of its target', async () => {
    const dir = tempDir('events-symlink')
    const pods = join(dir, 'pods')
    const containers = join(dir, 'containers')
    mkdirSync(pods)
    mkdirSync(containers)
    const target = join(pods, '0.log')
    writeFileSync(target, numbered('first', 1))
    symlinkSync(target, join(containers, 'web.log'))
    // As Kubernetes lays them out: the links' targets are outside the pattern's base, in a listed directory.
    const { seen } = collect(await tail({ ...NO_TICK, paths: [join(containers, '*.log')], followSymlinks: [pods] }))
    await pollUntil('the line present at start, through the symlink', () => seen.length === 1)

    // Only the target's own watch sees this: nothing changes in the symlink's directory.
    appendFileSync(target, numbered('first', 2))
    await pollUntil('a line appended to the target', () => seen.length === 2)

    // The runtime rotates: the target is renamed away, and a new one made a moment later.
    renameSync(target, join(pods, '0.log.20261126'))
    writeFileSync(target, numberedRange('second', 3, 8))
    await pollUntil("the new target's lines", () => seen.length === 8)
    appendFileSync(target, numbered('second', 9))
    await pollUntil('a line appended to the new target', () => seen.length === 9)
    expect(texts(seen)).toEqual([...lines('first', 1, 2), ...lines('second', 3, 9)])
    expect(seen.every((line) => line.path === join(containers, 'web.log'))).toBe(true)
  })

  it('picks a symlink up again once its target is back, after pointing nowhere for a while', async () => {
    const dir = tempDir('events-dangling')
    const target = join(dir, 'pods', '0.log')
    const link = join(dir, 'containers', 'web.log')
    mkdirSync(join(dir, 'pods'))
    mkdirSync(join(dir, 'containers'))
    writeFileSync(target, numbered('first', 1))
    symlinkSync(target, link)
    const tailer = await tail({
      ...NO_TICK,
      paths: [join(dir, 'containers', '*.log')],
      followSymlinks: [join(dir, 'pods')],
    })
    const { seen } = collect(tailer)
    await pollUntil('the line present at start', () => seen.length === 1)

    renameSync(target, join(dir, 'pods', '0.log.1'))
    await pollUntil('the symlink to point nowhere', () =>
      tailer.files().every((file) => file.path !== link || file.detached),
    )
    // No event tells of this write (the pods directory is not watched): discovery looks again by itself.
    writeFileSync(target, numberedRange('second', 2, 7))
    await pollUntil('the lines of the new target', () => seen.length === 7)
    expect(texts(seen)).toEqual([...lines('first', 1, 1), ...lines('second', 2, 7)])
  })

  it('reads a log directory made after start, and made again after it was removed', async () => {
    const dir = tempDir('events-late-dir')
    const logs = join(dir, 'logs')
    const warnings: string[] = []
    const tailer = await tail({
      ...NO_TICK,
      paths: [join(logs, '*.log')],
      onWarning: (warning) => warnings.push(warning.message),
    })
    const { seen } = collect(tailer)
    expect(warnings).toEqual([
      `watcher error: directory ${logs} does not exist: it is looked for every second, and its files are read from when it appears`,
    ])

    mkdirSync(logs)
    writeFileSync(join(logs, 'app.log'), numberedRange('first', 1, 6))
    await pollUntil('the lines of a file in the directory made after start', () => seen.length === 6)

    rmSync(logs, { recursive: true })
    await pollUntil('the removed file to be let go', () => tailer.files().every((file) => file.detached))
    mkdirSync(logs)
    writeFileSync(join(logs, 'app.log'), numberedRange('second', 7, 12))
    await pollUntil('the lines of a file in the directory made again', () => seen.length === 12)
    expect(texts(seen)).toEqual([...lines('first', 1, 6), ...lines('second', 7, 12)])
  })
})
