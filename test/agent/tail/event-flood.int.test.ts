// A writer filling several files in a tight loop makes inotify events faster than they can be
// handled, and libuv empties the inotify queue before it runs anything else: the tailer used to read
// nothing at all until the writer stopped. Discovery now drops its watches for a poll when that
// happens; reading must go on while the writer is still writing, and lose and repeat no line.
import { fork } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, it } from 'vitest'
import { createTailer, type TailError } from '../../../agent/tail'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

const writer = resolve(__dirname, '../../fixtures/tail/flood-writer-child.js')
const FILES = 4

it('keeps reading while a writer floods several files with events, each line once and in order', async () => {
  const dir = tempDir('tail-flood')
  const paths = Array.from({ length: FILES }, (_, k) => join(dir, `f${k}.log`))
  const stopFile = join(dir, 'stop')
  const warnings: TailError[] = []
  const tailer = await createTailer({
    paths: join(dir, '*.log'),
    startAt: 'beginning',
    onWarning: (w) => warnings.push(w),
  })
  const last = new Map<string, number>()
  const problems: string[] = []
  let lines = 0
  const consumed = (async () => {
    for await (const batch of tailer) {
      for (const line of batch.lines) {
        const match = /^file (\d) line (\d+) /.exec(line.data.toString('latin1'))
        const file = match?.[1] ?? '?'
        const n = Number(match?.[2])
        const expected = (last.get(file) ?? 0) + 1
        if (n !== expected && problems.length < 10) problems.push(`file ${file}: got ${n}, expected ${expected}`)
        last.set(file, n)
        lines++
      }
      await tailer.commit(batch)
    }
  })()
  const child = fork(writer, [stopFile, '20000', ...paths], { stdio: 'ignore' })
  try {
    await pollUntil('20,000 lines read while the writer still writes', () => lines >= 20_000, { timeoutMs: 15_000 })
    expect(existsSync(`${stopFile}.done`)).toBe(false)
    writeFileSync(stopFile, '')
    await pollUntil('the writer to stop', () => existsSync(`${stopFile}.done`))
    const { counts, byStopFile } = JSON.parse(readFileSync(`${stopFile}.done`, 'utf8')) as {
      counts: number[]
      byStopFile: boolean
    }
    expect(byStopFile).toBe(true)
    const total = counts.reduce((a, b) => a + b, 0)
    await pollUntil(`all ${total} lines`, () => lines >= total, { timeoutMs: 30_000 })
    expect(problems).toEqual([])
    expect(lines).toBe(total)
    expect([...last.entries()].sort()).toEqual(counts.map((count, k) => [String(k), count]))
    expect(warnings.map((w) => w.code)).toContain('LOGX_TAIL_ERR_EVENT_FLOOD')
  } finally {
    writeFileSync(stopFile, '')
    child.kill('SIGKILL')
    await tailer.close()
    await consumed
  }
}, 90_000)
