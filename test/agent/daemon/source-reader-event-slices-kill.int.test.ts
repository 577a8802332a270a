// A reader killed (SIGKILL) in the middle of a big backlog of multi-line events, its slices committed
// as they went (agent/events/event-slices.ts): the checkpoint on disk holds no line of an event not
// handled, and a reader started again reads every event from there on, in order: none is lost.
// The reader runs in a child process (the built dist/), whose pipeline journals each event it
// handles synchronously, as the agent's does, and is slow, as the kinds miner is on new kinds (50 µs
// an event or more: a slice of 1024 takes 50 ms or more). The checkpoint is written 100 ms after a commit,
// by a timer that runs only because the loop turns between slices; the child kills itself at the
// first event past `killAfter` once that checkpoint is on disk.
import '../../helpers/needs-build'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { SLICE_LINES } from '../../../agent/daemon/batch-slices'
import { repoRoot } from '../../helpers/build'
import { suiteTempDir } from '../../helpers/temp-dir'
import { multilineBacklog, readWith } from './event-backlog'

const dir = suiteTempDir('reader-event-slices-kill')

const CHILD = `
const { appendFileSync, existsSync } = require('node:fs')
const { startSourceReader } = require('./dist/agent/daemon/source-reader')
const { createAgentLogger } = require('./dist/agent/daemon/logger')
const { source, stateDir, journal, checkpoint, killAfter, total } = JSON.parse(process.env.SLICE_KILL)
const slow = new Int32Array(new SharedArrayBuffer(4))
let handled = 0
const pipeline = {
  lowestLevel: () => 50,
  countLines() {},
  ingest(line) {
    if (!line.raw.startsWith('ERROR')) return
    Atomics.wait(slow, 0, 0, 0.05)
    appendFileSync(journal, JSON.stringify(line.raw) + '\\n')
    handled++
    // At the end of the backlog anyway: the test then says the checkpoint never came.
    if ((handled >= killAfter && handled % 64 === 0 && existsSync(checkpoint)) || handled === total)
      process.kill(process.pid, 'SIGKILL')
  },
}
const log = createAgentLogger({ destination: { write: () => true } })
startSourceReader({ source, stateDir, pipeline: () => pipeline, log })
`

/** Runs the child until it kills itself; resolves with the signal it died of. */
function runChild(env: Record<string, unknown>): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, ['-'], {
    cwd: repoRoot,
    env: { ...process.env, SLICE_KILL: JSON.stringify(env) },
    stdio: ['pipe', 'ignore', 'inherit'],
  })
  child.stdin.end(CHILD)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (_code, signal) => resolve(signal))
  })
}

it('a reader killed in the middle of a multi-line backlog loses no event once started again', async () => {
  const total = 12 * SLICE_LINES
  const backlog = multilineBacklog(dir, 'killed', total)
  const journal = join(dir, 'journal.jsonl')
  const stateDir = join(dir, 'killed')
  const checkpointFile = join(stateDir, 'checkpoints', 'killed.json')
  const env = {
    source: backlog.source,
    stateDir,
    journal,
    checkpoint: checkpointFile,
    killAfter: 4 * SLICE_LINES,
    total,
  }
  expect(await runChild(env)).toBe('SIGKILL')
  const handled = readFileSync(journal, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as string)
  expect(handled).toEqual(backlog.events.slice(0, handled.length))
  expect(handled.length, 'killed before the end of the backlog, a checkpoint on disk').toBeLessThan(total)
  const checkpoint = JSON.parse(readFileSync(checkpointFile, 'utf8')) as { files: Array<{ offset: number }> }
  const [offset] = checkpoint.files.map((f) => f.offset)
  // Slices were committed, and none past the first line of the first event not handled.
  expect(offset).toBeGreaterThan(0)
  expect(offset).toBeLessThanOrEqual(backlog.startOf(handled.length))

  const again: string[] = []
  const restarted = await readWith(dir, 'killed', backlog.source, (line) => void again.push(line.raw))
  try {
    await expect.poll(() => again.at(-1)).toBe(backlog.events.at(-1))
    const from = backlog.events.indexOf(again[0] as string)
    expect(from).toBeGreaterThanOrEqual(0)
    expect(from).toBeLessThanOrEqual(handled.length)
    // Read again from the checkpoint's first line on: the events handled after it come again (at least
    // once), none is missing.
    expect(backlog.startOf(from)).toBe(offset)
    expect(again).toEqual(backlog.events.slice(from))
  } finally {
    await restarted.close()
  }
})
