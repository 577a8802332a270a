import { closeSync, copyFileSync, fstatSync, openSync, renameSync, truncateSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { createTailer } from '../../../agent/tail'
import { HEAD_BYTES } from '../../../agent/tail/file-identity'
import { collect, expectEachOnceInOrder, numbered } from './helpers'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

// Model test: random sequences of appends, half-written lines, rename-and-create and
// copy-and-truncate rotations, with the tailer sometimes caught up and sometimes behind when the
// rotation happens. Whatever the sequence, every line comes out exactly once, in order per file.

type Op =
  | { readonly kind: 'append'; readonly lines: number }
  | { readonly kind: 'half-line' }
  | { readonly kind: 'settle' }
  | { readonly kind: 'rename' }
  | { readonly kind: 'copytruncate' }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }).map((lines) => ({ kind: 'append' as const, lines })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'half-line' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'settle' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'rename' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'copytruncate' as const }) },
)

it('no line lost or repeated through any mix of appends and both kinds of rotation', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), fc.boolean(), async (ops, syncReads) => {
      const dir = tempDir('tail-model')
      const file = join(dir, 'app.log')
      let fd = openSync(file, 'a')
      const tailer = await createTailer({
        paths: join(dir, '*.log'),
        startAt: 'beginning',
        pollIntervalMs: 20,
        readChunkBytes: 700,
        syncReads,
      })
      const { seen } = collect(tailer)
      let n = 0
      let bytesInFile = 0
      let rotations = 0
      const write = (text: string): void => {
        writeSync(fd, text)
        bytesInFile += Buffer.byteLength(text)
      }
      try {
        for (const step of ops) {
          if (step.kind === 'append') for (let i = 0; i < step.lines; i++) write(numbered('line', ++n))
          else if (step.kind === 'half-line') {
            const line = numbered('line', ++n)
            write(line.slice(0, 20))
            // The tailer has read up to the half line (and holds it) before the rest arrives.
            await pollUntil(`line ${n - 1} read`, () => seen.length === n - 1)
            write(line.slice(20))
          } else if (step.kind === 'settle') {
            await pollUntil(`line ${n} read`, () => seen.length === n)
          } else if (step.kind === 'rename') {
            // A file renamed out of the patterns before the tailer ever opened it cannot be read by
            // anyone who finds files by name: rotations are assumed further apart than that.
            const stats = fstatSync(fd, { bigint: true })
            await pollUntil('the current file opened', () =>
              tailer.files().some((status) => status.fileId === `${stats.dev}:${stats.ino}`),
            )
            rotations++
            renameSync(file, join(dir, `app.log.${rotations}`))
            closeSync(fd)
            fd = openSync(file, 'a')
            bytesInFile = 0
          } else if (bytesInFile >= HEAD_BYTES) {
            // Copies are recognised by their first HEAD_BYTES bytes: shorter files are not rotated this way.
            rotations++
            copyFileSync(file, join(dir, `app__${rotations}.log`))
            truncateSync(file, 0)
            bytesInFile = 0
          }
        }
        closeSync(fd)
        await pollUntil(`all ${n} lines`, () => seen.length >= n)
        // Anything extra would come from a file not read to its end or not yet classified.
        await pollUntil('the tailer idle', () =>
          tailer
            .files()
            .every(
              (status) => status.phase === 'parked' || (status.phase === 'active' && status.readOffset >= status.size),
            ),
        )
        expectEachOnceInOrder(seen, 1, n)
        expect(seen.length).toBe(n)
      } finally {
        await tailer.close()
      }
    }),
    { numRuns: 40 },
  )
}, 120_000)
