// Multi-line events over a real tailer when a new file gets a dead file's inode, as ext4 does
// under logrotate (a rename over `app.log.1` frees an inode, the new `app.log` takes it). The
// event still open in a file's generation must end when its next generation is read (copy-and-
// truncate), whatever generation the dead file with that inode had reached: nothing here ends
// an event by the clock.
import { closeSync, copyFileSync, openSync, renameSync, statSync, truncateSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { createSourceEvents } from '../../../agent/events/source-events'
import { useTailerScope } from '../tail/helpers'
import { pollUntil } from '../../helpers/poll-until'

const { tempDir, tail, defer } = useTailerScope()

/** One event: its first line and a frame, padded so that a few fill a file's head. */
const event = (name: string): string => `ERROR ${name} ${'.'.repeat(40)}\n\tat drill.App.run(App.java:1)\n`
const events = (tag: string, from: number, to: number): string => {
  let text = ''
  for (let n = from; n <= to; n++) text += event(`${tag}${n}`)
  return text
}
const names = (tag: string, from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${tag}${from + i}`)

it("a file with a dead file's inode has its own events: its open event ends at its next generation", async () => {
  const dir = tempDir('reused-inode')
  const app = join(dir, 'app.log')
  let fd = openSync(app, 'a')
  defer(() => closeSync(fd))
  const tailer = await tail({ paths: join(dir, '*.log'), readChunkBytes: 1024, reuseBuffers: true })
  const ingested: string[] = []
  const source = createSourceEvents({
    format: 'text',
    multiline: { match: { kind: 'preset', preset: 'java' }, maxLines: 500, timeoutMs: 3_600_000 },
    maxLineBytes: 1 << 20,
    tailer,
    now: Date.now,
    ingest: (pending) => ingested.push(pending.first.split(' ')[1] ?? '') > 0,
    onMalformed: () => undefined,
  })
  defer(() => source.close())
  void (async () => {
    for await (const batch of tailer) source.lines(batch, batch.lines, Date.now())
  })()
  const seen =
    (name: string): (() => boolean) =>
    () =>
      ingested.includes(name)

  // The first file reaches generation 1: a copy-and-truncate with lines only the copy has.
  writeSync(fd, events('a', 1, 20))
  await pollUntil('a19', seen('a19'))
  writeSync(fd, events('a', 21, 40))
  copyFileSync(app, join(dir, 'app__1.log'))
  truncateSync(app, 0)
  writeSync(fd, events('a', 41, 60))
  await pollUntil('a59', seen('a59'))
  const deadInode = statSync(app).ino

  // Renamed away twice: the second rename, over app.log.1, deletes the first file.
  renameSync(app, `${app}.1`)
  closeSync(fd)
  fd = openSync(app, 'a')
  writeSync(fd, events('b', 1, 20))
  await pollUntil('b19', seen('b19'))
  // The tailer closes the first file once it stops growing; only then is its inode free.
  await pollUntil(
    'the first file released',
    () => !tailer.files().some((file) => file.fileId.endsWith(`:${deadInode}`)),
  )
  renameSync(app, `${app}.1`)
  closeSync(fd)
  fd = openSync(app, 'a')
  expect(
    statSync(app).ino,
    'this filesystem gave the new file another inode: the test needs one that reuses them, as ext4 does',
  ).toBe(deadInode)

  // The third file, at generation 0, with an open event only its copy will finish; then generation 1.
  writeSync(fd, events('c', 1, 20))
  await pollUntil('c19', seen('c19'))
  writeSync(fd, events('c', 21, 40))
  copyFileSync(app, join(dir, 'app__2.log'))
  truncateSync(app, 0)
  writeSync(fd, `${events('c', 41, 60)}INFO end\n`)
  await pollUntil('c60', seen('c60'))

  expect(ingested).toEqual([...names('a', 1, 60), ...names('b', 1, 20), ...names('c', 1, 60)])
})
