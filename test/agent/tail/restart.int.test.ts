// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { numbered, numberOf } from './helpers'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

const fixture = resolve(__dirname, '../../fixtures/tail/tail-child.js')
const children: ChildProcess[] = []
const cleanups: Array<() => void> = []

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const cleanup of cleanups.splice(0)) cleanup()
})

interface Handled {
  readonly offset: number
  readonly n: number
}

function readHandled(file: string): Handled[] {
  if (!existsSync(file)) return []
  const rows = readFileSync(file, 'utf8').split('\n')
  // A row the SIGKILL cut short has no '\n': it was never fully handled.
  rows.pop()
  return rows.map((row) => {
    const [offset, text] = row.split('\t')
    return { offset: Number(offset), n: numberOf(text ?? '') }
  })
}

async function startChild(log: string, checkpoint: string, out: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fixture, log, checkpoint, out], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer]
  expect(chunk.toString()).toBe('ready\n')
  return child
}

it('after SIGKILL, a restarted tailer resumes exactly at the last committed offset', async () => {
  const dir = tempDir('tail-sigkill')
  const log = join(dir, 'app.log')
  const checkpoint = join(dir, 'checkpoint.json')
  const out1 = join(dir, 'handled-1.txt')
  const out2 = join(dir, 'handled-2.txt')
  const total = 3000
  let written = 0
  const writeUpTo = (n: number): void => {
    let text = ''
    while (written < n) text += numbered('line', ++written)
    appendFileSync(log, text)
  }
  writeFileSync(log, '')
  writeUpTo(200)

  const first = await startChild(log, checkpoint, out1)
  // Keep writing while it reads; kill it in the middle of the stream.
  while (readHandled(out1).length < 1000) {
    writeUpTo(Math.min(total, written + 50))
    await new Promise((resolve) => setImmediate(resolve))
  }
  first.kill('SIGKILL')
  await once(first, 'exit')
  writeUpTo(total)

  const saved = JSON.parse(readFileSync(checkpoint, 'utf8')) as { version: number; files: Array<{ offset: number }> }
  expect(saved.version).toBe(1)
  expect(saved.files).toHaveLength(1)
  const committed = saved.files[0]?.offset as number
  const handledBefore = readHandled(out1)
  // The committed offset is the end of a line the first run had handled.
  expect(handledBefore.some((line) => line.offset === committed)).toBe(true)
  expect(committed).toBeLessThan(readFileSync(log).length)

  await startChild(log, checkpoint, out2)
  await pollUntil(`line ${total} handled by the second run`, () => readHandled(out2).at(-1)?.n === total)
  const handledAfter = readHandled(out2)
  const lineLength = numbered('line', 1).length
  // It starts with the line right after the committed offset: nothing skipped, nothing committed re-read.
  expect(handledAfter[0]?.offset).toBe(committed + lineLength)
  const numbers = [...handledBefore.filter((line) => line.offset <= committed), ...handledAfter].map((line) => line.n)
  expect(numbers).toEqual(Array.from({ length: total }, (_, i) => i + 1))
})
