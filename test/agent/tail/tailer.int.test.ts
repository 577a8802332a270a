import { fork } from 'node:child_process'
import { once } from 'node:events'
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  renameSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTailer, TailErrorCodes, type LineBatch } from '../../../agent/tail'
import { collect, expectEachOnceInOrder, useTailerScope, numbered, numberedRange, numberOf } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

const { tempDir, tail, defer } = useTailerScope()

describe('reading', () => {
  it('emits appended lines with the offset after each, completing a partial line once', async () => {
    const dir = tempDir('append')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, '*.log') })
    const { seen } = collect(tailer)
    appendFileSync(file, 'one\ntwo\nthr')
    await pollUntil('two lines', () => seen.length === 2)
    appendFileSync(file, 'ee\n')
    await pollUntil('the completed line', () => seen.length === 3)
    appendFileSync(file, 'four\n')
    await pollUntil('four lines', () => seen.length === 4)
    expect(seen.map((line) => [line.text, line.offset])).toEqual([
      ['one', 4],
      ['two', 8],
      ['three', 14],
      ['four', 19],
    ])
    expect(seen.every((line) => line.path === file && !line.truncated)).toBe(true)
    expect(tailer.stats()).toMatchObject({ linesRead: 4, bytesRead: 19, truncatedLines: 0 })
  })

  it('passes NUL bytes, invalid UTF-8 and CR through as bytes', async () => {
    const dir = tempDir('binary')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: file })
    const lines: Buffer[] = []
    void (async () => {
      for await (const batch of tailer) for (const line of batch.lines) lines.push(Buffer.from(line.data))
    })()
    const weird = Buffer.from([0x61, 0x00, 0x62, 0xff, 0xfe, 0xc3, 0x28, 0x0d])
    appendFileSync(file, Buffer.concat([weird, Buffer.from('\nnext\n')]))
    await pollUntil('two lines', () => lines.length === 2)
    expect(lines[0]).toEqual(weird)
    expect(lines[1]?.toString()).toBe('next')
  })

  it('cuts lines over maxLineBytes, counts them, and goes on', async () => {
    const dir = tempDir('giant')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: file, maxLineBytes: 1000, readChunkBytes: 300 })
    const { seen } = collect(tailer)
    const giant = 'g'.repeat(5000)
    appendFileSync(file, `small 1\n${giant}\nsmall 2\n`)
    // A giant line written in pieces, while the tailer is reading.
    appendFileSync(file, 'h'.repeat(2500))
    await pollUntil('three lines', () => seen.length === 3)
    appendFileSync(file, 'h'.repeat(2500) + '\nsmall 3\n')
    await pollUntil('five lines', () => seen.length === 5)
    expect(seen.map((line) => [line.text.slice(0, 8), line.text.length, line.truncated])).toEqual([
      ['small 1', 7, false],
      ['gggggggg', 1000, true],
      ['small 2', 7, false],
      ['hhhhhhhh', 1000, true],
      ['small 3', 7, false],
    ])
    expect(seen[3]?.offset).toBe(8 + 5001 + 8 + 5001)
    expect(tailer.stats().truncatedLines).toBe(2)
  })
})

describe('commit', () => {
  it('rejects a batch it did not produce, and any commit after close', async () => {
    const dir = tempDir('commit')
    const file = join(dir, 'app.log')
    writeFileSync(file, 'a\n')
    const tailer = await createTailer({ paths: file, startAt: 'beginning' })
    await expect(
      tailer.commit({
        fileId: '1:2',
        followId: 1,
        generation: 0,
        path: file,
        lines: [],
        lineCount: 0,
        offset: 2,
        chunk: undefined,
      }),
    ).rejects.toMatchObject({ code: TailErrorCodes.FOREIGN_BATCH })
    let first: LineBatch | undefined
    for await (const batch of tailer) {
      first = batch
      break
    }
    await tailer.close()
    await expect(tailer.commit(first as LineBatch)).rejects.toMatchObject({ code: TailErrorCodes.CLOSED })
  })

  it('with reuseBuffers, lines stay right while buffers are recycled on commit', async () => {
    const dir = tempDir('reuse-buffers')
    const file = join(dir, 'app.log')
    writeFileSync(file, numberedRange('line', 1, 3000))
    const tailer = await tail({ paths: file, startAt: 'beginning', reuseBuffers: true, readChunkBytes: 1000 })
    const { seen } = collect(tailer)
    await pollUntil('3000 lines', () => seen.length === 3000)
    expectEachOnceInOrder(seen, 1, 3000)
    expect(seen.every((line) => line.text === numbered('line', numberOf(line.text)).slice(0, -1))).toBe(true)
  })
})

describe('startAt', () => {
  it("starts files found at startup at their end by default, and at 0 with 'beginning'", async () => {
    const dir = tempDir('start')
    const file = join(dir, 'app.log')
    writeFileSync(file, numberedRange('old', 1, 3))
    const fromEnd = await tail({ paths: file })
    const fromStart = await tail({ paths: file, startAt: 'beginning' })
    const end = collect(fromEnd)
    const start = collect(fromStart)
    appendFileSync(file, numbered('new', 4))
    await pollUntil('the new line in both', () => end.seen.length === 1 && start.seen.length === 4)
    expect(end.seen.map((line) => line.text.slice(0, 10))).toEqual(['new 000004'])
    expect(start.seen.map((line) => numberOf(line.text))).toEqual([1, 2, 3, 4])
  })

  it("with 'end', still emits a line that was half written at startup, whole", async () => {
    const dir = tempDir('start-partial')
    const file = join(dir, 'app.log')
    writeFileSync(file, 'done\nhalf-')
    const tailer = await tail({ paths: file })
    const { seen } = collect(tailer)
    appendFileSync(file, 'written\n')
    await pollUntil('the completed line', () => seen.length === 1)
    expect(seen[0]?.text).toBe('half-written')
  })

  it('reads files that appear later from their first byte, in new subdirectories too', async () => {
    const dir = tempDir('discover')
    const tailer = await tail({ paths: [join(dir, '*.log'), join(dir, 'apps', '**', '*.log')] })
    const { seen } = collect(tailer)
    writeFileSync(join(dir, 'late.log'), numberedRange('late', 1, 10))
    mkdirSync(join(dir, 'apps', 'api'), { recursive: true })
    writeFileSync(join(dir, 'apps', 'api', 'api.log'), numberedRange('api', 1, 10))
    writeFileSync(join(dir, 'ignored.txt'), 'not matched\n')
    await pollUntil('20 lines', () => seen.length === 20)
    expect(new Set(seen.map((line) => line.path))).toEqual(
      new Set([join(dir, 'late.log'), join(dir, 'apps', 'api', 'api.log')]),
    )
  })

  it('warns with LOGX_TAIL_ERR_WATCH when a pattern names a directory that does not exist', async () => {
    const dir = tempDir('missing-dir')
    const warnings: unknown[] = []
    await tail({ paths: join(dir, 'nope', '*.log'), onWarning: (error) => warnings.push(error) })
    expect(warnings).toEqual([expect.objectContaining({ code: TailErrorCodes.WATCH })])
  })

  it('waits for a short new file to settle, then reads it from 0', async () => {
    const dir = tempDir('short')
    const tailer = await tail({ paths: join(dir, '*.log') })
    const { seen } = collect(tailer)
    writeFileSync(join(dir, 'tiny.log'), 'a\nb\n')
    await pollUntil('both lines of a file shorter than the fingerprint', () => seen.length === 2)
    expect(seen.map((line) => line.text)).toEqual(['a', 'b'])
  })
})

describe('rotation', () => {
  it('rename-and-create: reads the old file to its end (late writes included), then the new one from 0', async () => {
    const dir = tempDir('rename')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, '*.log'), readChunkBytes: 1024 })
    const { seen } = collect(tailer)
    let fd = openSync(file, 'a')
    let n = 0
    const write = (count: number): void => {
      let text = ''
      for (let i = 0; i < count; i++) text += numbered('line', ++n)
      writeSync(fd, text)
    }
    for (let burst = 0; burst < 10; burst++) {
      write(50)
      if (burst === 3) await pollUntil('reading under way', () => seen.length >= 100)
      if (burst === 5) {
        renameSync(file, join(dir, 'app.log.1'))
        write(20) // the app has not reopened its log yet: these land in the renamed file
        closeSync(fd)
        fd = openSync(file, 'a')
      }
    }
    closeSync(fd)
    await pollUntil(`${n} lines`, () => seen.length >= n)
    await pollUntil('the renamed file released', () => tailer.stats().released === 1)
    expectEachOnceInOrder(seen, 1, n)
    expect(new Set(seen.map((line) => line.fileId)).size).toBe(2)
    expect(tailer.stats().rotations).toBe(1)
    expect(tailer.files().map((status) => status.path)).toEqual([file])
  })

  it('rename-and-create with a writer in another process that reopens its log when told (pm2 reloadLogs)', async () => {
    const dir = tempDir('rename-live')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, '*.log'), readChunkBytes: 4096 })
    const { seen } = collect(tailer)
    const total = 3000
    const writer = fork(join(__dirname, '../../fixtures/tail/writer-child.js'), [file, String(total)], {
      stdio: 'inherit',
    })
    defer(() => {
      if (writer.exitCode === null) writer.kill('SIGKILL')
    })
    let written = 0
    let reopened = 0
    writer.on('message', (message) => {
      if (message === 'reopened') reopened++
      else written = (message as { written: number }).written
    })
    const exited = once(writer, 'exit')
    for (let rotation = 1; rotation <= 3; rotation++) {
      await pollUntil(`${rotation * 700} lines written`, () => written >= rotation * 700)
      renameSync(file, join(dir, `app.log.${rotation}`))
      writer.send('reopen')
      await pollUntil(`reopen ${rotation}`, () => reopened === rotation)
    }
    await exited
    await pollUntil(`${total} lines`, () => seen.length >= total)
    expectEachOnceInOrder(seen, 1, total)
    expect(tailer.stats().rotations).toBe(3)
    await pollUntil('the three renamed files released', () => tailer.stats().released === 3)
  })

  it('rename within the patterns keeps reading the same file under its new name', async () => {
    const dir = tempDir('rename-in')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, 'app.log*') })
    const { seen } = collect(tailer)
    const fd = openSync(file, 'a')
    writeSync(fd, numberedRange('line', 1, 100))
    renameSync(file, join(dir, 'app.log.1'))
    writeSync(fd, numberedRange('line', 101, 200))
    closeSync(fd)
    writeFileSync(file, numberedRange('line', 201, 300))
    await pollUntil('300 lines', () => seen.length >= 300)
    expectEachOnceInOrder(seen, 1, 300)
    await pollUntil('the old file under its new name', () =>
      tailer.files().some((status) => status.path === join(dir, 'app.log.1')),
    )
  })

  // Repeated, with and without recycled buffers: when the tailer is behind, the file is truncated
  // and rewritten past the offset already read before it looks again (round 2 onwards), a race
  // that failed 3 times in 48 runs under load before each chunk's first bytes were checked.
  for (const [reuseBuffers, syncReads] of [
    [false, false],
    [true, false],
    [true, true],
  ] as const) {
    for (let attempt = 1; attempt <= 4; attempt++) {
      it(`copy-and-truncate (pm2-logrotate): no line lost or repeated, unread lines taken from the copy (reuseBuffers ${reuseBuffers}, syncReads ${syncReads}, run ${attempt})`, async () => {
        const dir = tempDir('copytruncate')
        const file = join(dir, 'app.log')
        writeFileSync(file, '')
        const tailer = await tail({ paths: join(dir, '*.log'), readChunkBytes: 1024, reuseBuffers, syncReads })
        const { seen } = collect(tailer)
        const fd = openSync(file, 'a')
        let n = 0
        const write = (count: number): void => {
          let text = ''
          for (let i = 0; i < count; i++) text += numbered('line', ++n)
          writeSync(fd, text)
        }
        for (let round = 1; round <= 3; round++) {
          write(100)
          await pollUntil(`${n} lines read`, () => seen.length >= n)
          // Lines the tailer has not seen when the rotation happens: only the copy still has them.
          write(60)
          copyFileSync(file, join(dir, `app__rotated-${round}.log`))
          truncateSync(file, 0)
          write(40)
        }
        closeSync(fd)
        await pollUntil(`${n} lines`, () => seen.length >= n)
        expectEachOnceInOrder(seen, 1, n)
        expect(tailer.stats().truncations).toBe(3)
        expect(tailer.stats().copiesFollowed).toBe(3)
      })
    }
  }

  it('copy-and-truncate while nothing was read yet reads the copy from 0 and the file again from 0', async () => {
    const dir = tempDir('copytruncate-cold')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, '*.log') })
    const { seen } = collect(tailer)
    writeFileSync(file, numberedRange('line', 1, 100))
    copyFileSync(file, join(dir, 'app__rotated.log'))
    truncateSync(file, 0)
    appendFileSync(file, numberedRange('line', 101, 150))
    await pollUntil('150 lines', () => seen.length >= 150)
    expectEachOnceInOrder(seen, 1, 150)
  })

  it('holds back a copy of a file being read (same first bytes), and reads it only if the original is truncated', async () => {
    const dir = tempDir('backup')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, '*.log') })
    const { seen } = collect(tailer)
    appendFileSync(file, numberedRange('line', 1, 100))
    await pollUntil('100 lines', () => seen.length === 100)
    copyFileSync(file, join(dir, 'backup.log'))
    await pollUntil('the copy parked', () => tailer.files().some((status) => status.phase === 'parked'))
    appendFileSync(file, numberedRange('line', 101, 120))
    await pollUntil('120 lines', () => seen.length === 120)
    expectEachOnceInOrder(seen, 1, 120)
    expect(new Set(seen.map((line) => line.fileId)).size).toBe(1)
  })

  // The same first bytes (a fixed banner or header longer than the fingerprint) used to park the
  // second file as a copy of the first for good: its lines were never read.
  const banner = `# service api ${'='.repeat(300)}\n`
  it('reads a file that only starts like one being read (the same header), as a file of its own', async () => {
    const dir = tempDir('same-header')
    const first = join(dir, 'first.log')
    writeFileSync(first, '')
    const tailer = await tail({ paths: join(dir, '*.log') })
    const { seen } = collect(tailer)
    appendFileSync(first, banner + numberedRange('first', 1, 50))
    await pollUntil('the first file read', () => seen.length === 51)
    writeFileSync(join(dir, 'second.log'), banner + numberedRange('second', 1, 30))
    await pollUntil('the second file read', () => seen.length === 51 + 31)
    const second = seen.slice(51)
    expect(second.map((line) => line.text)).toEqual([
      banner.slice(0, -1),
      ...numberedRange('second', 1, 30).split('\n').slice(0, -1),
    ])
    expect(second.every((line) => line.path === join(dir, 'second.log'))).toBe(true)
  })

  it('reads a file that holds all of one being read and more (no copy is longer than its original)', async () => {
    const dir = tempDir('longer-twin')
    const first = join(dir, 'first.log')
    writeFileSync(first, '')
    const tailer = await tail({ paths: join(dir, '*.log') })
    const { seen } = collect(tailer)
    appendFileSync(first, numberedRange('line', 1, 50))
    await pollUntil('the first file read', () => seen.length === 50)
    writeFileSync(join(dir, 'second.log'), numberedRange('line', 1, 80))
    await pollUntil('the second file read', () => seen.length === 50 + 80)
    expect(seen.slice(50).map((line) => numberOf(line.text))).toEqual(Array.from({ length: 80 }, (_, i) => i + 1))
  })

  it('reads such a file found at startup beside a file resumed from the checkpoint', async () => {
    const dir = tempDir('same-header-startup')
    const first = join(dir, 'first.log')
    const checkpointPath = join(dir, 'checkpoint.json')
    writeFileSync(first, banner + numberedRange('first', 1, 50))
    const before = await createTailer({
      paths: join(dir, '*.log'),
      startAt: 'beginning',
      checkpointPath,
      pollIntervalMs: 25,
    })
    const earlier = collect(before)
    await pollUntil('the first file read', () => earlier.seen.length === 51)
    await before.close()
    writeFileSync(join(dir, 'second.log'), banner + numberedRange('second', 1, 30))
    const tailer = await tail({ paths: join(dir, '*.log'), startAt: 'beginning', checkpointPath })
    const { seen } = collect(tailer)
    await pollUntil('the second file read', () => seen.length === 31)
    expect(seen.map((line) => line.path)).toEqual(Array(31).fill(join(dir, 'second.log')))
  })

  it('finishes a deleted file, emits its unterminated last line once, and releases it', async () => {
    const dir = tempDir('delete')
    const file = join(dir, 'app.log')
    writeFileSync(file, '')
    const tailer = await tail({ paths: join(dir, '*.log') })
    const { seen } = collect(tailer)
    appendFileSync(file, numberedRange('line', 1, 50) + 'line 000051 no newline')
    unlinkSync(file)
    await pollUntil('the deleted file released', () => tailer.stats().released === 1)
    expect(seen.map((line) => numberOf(line.text))).toEqual(Array.from({ length: 51 }, (_, i) => i + 1))
    expect(seen[50]?.offset).toBe(50 * numbered('line', 1).length + 'line 000051 no newline'.length)
    expect(tailer.files()).toEqual([])
  })
})

describe('scale', () => {
  it('tails 300 files with one scheduler', async () => {
    const dir = tempDir('many')
    for (let i = 0; i < 300; i++) writeFileSync(join(dir, `app-${i}.log`), '')
    const tailer = await tail({ paths: join(dir, '*.log') })
    expect(tailer.stats().files).toBe(300)
    const { seen } = collect(tailer)
    for (let i = 0; i < 300; i++) appendFileSync(join(dir, `app-${i}.log`), numberedRange(`f${i}`, 1, 5))
    await pollUntil('1500 lines', () => seen.length === 1500, { timeoutMs: 30_000 })
    const perFile = new Map<string, number[]>()
    for (const line of seen) perFile.set(line.fileId, [...(perFile.get(line.fileId) ?? []), numberOf(line.text)])
    expect(perFile.size).toBe(300)
    for (const numbers of perFile.values()) expect(numbers).toEqual([1, 2, 3, 4, 5])
  })
})

describe('checkpoints', () => {
  it('resumes after the last committed line, not after the last line read', async () => {
    const dir = tempDir('resume')
    const file = join(dir, 'app.log')
    const checkpointPath = join(dir, 'checkpoint.json')
    writeFileSync(file, numberedRange('line', 1, 100))
    const first = await createTailer({ paths: file, startAt: 'beginning', checkpointPath })
    for await (const batch of first) {
      expect(batch.lines.length).toBe(100)
      await first.commit(batch, 40)
      break
    }
    await first.close()
    appendFileSync(file, numberedRange('line', 101, 120))
    // startAt 'end' would skip everything: the checkpoint wins.
    const second = await tail({ paths: file, checkpointPath })
    const { seen } = collect(second)
    await pollUntil('lines 41..120', () => seen.length === 80)
    expect(seen.map((line) => numberOf(line.text))).toEqual(Array.from({ length: 80 }, (_, i) => i + 41))
  })

  it('starts a file over when its inode was reused by another file', async () => {
    const dir = tempDir('reuse')
    const file = join(dir, 'app.log')
    const checkpointPath = join(dir, 'checkpoint.json')
    writeFileSync(file, numberedRange('line', 1, 100))
    const first = await createTailer({ paths: file, startAt: 'beginning', checkpointPath })
    for await (const batch of first) {
      await first.commit(batch)
      break
    }
    await first.close()
    // Same path, same inode (truncated in place), other content: the checksum tells.
    writeFileSync(file, numberedRange('other', 1, 200))
    const second = await tail({ paths: file, checkpointPath })
    const { seen } = collect(second)
    await pollUntil('200 lines', () => seen.length === 200)
    expect(seen[0]?.text.startsWith('other 000001')).toBe(true)
  })

  it('resumes a copy-and-truncate that happened while it was down from the copy', async () => {
    const dir = tempDir('resume-copy')
    const file = join(dir, 'app.log')
    const checkpointPath = join(dir, 'checkpoint.json')
    writeFileSync(file, numberedRange('line', 1, 100))
    const first = await createTailer({ paths: join(dir, '*.log'), startAt: 'beginning', checkpointPath })
    for await (const batch of first) {
      await first.commit(batch)
      break
    }
    await first.close()
    appendFileSync(file, numberedRange('line', 101, 150))
    copyFileSync(file, join(dir, 'app__rotated.log'))
    truncateSync(file, 0)
    appendFileSync(file, numberedRange('line', 151, 170))
    const second = await tail({ paths: join(dir, '*.log'), checkpointPath })
    const { seen } = collect(second)
    await pollUntil('lines 101..170', () => seen.length >= 70)
    expectEachOnceInOrder(seen, 101, 170)
  })
})
