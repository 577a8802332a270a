// A reader hands a big batch to the pipeline in slices (agent/daemon/batch-slices.ts): the event loop
// turns between them, the lines stay in order, and the checkpoint holds only slices that went through.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { AlertLine } from '../../../alerts'
import type { AlertPipeline } from '../../../agent/delivery/types'
import { SLICE_LINES } from '../../../agent/daemon/batch-slices'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { startSourceReader } from '../../../agent/daemon/source-reader'
import { suiteTempDir } from '../../helpers/temp-dir'
import { jsonFileSource } from './file-source'
import { countLoopTurns } from '../../helpers/loop-turns'

const dir = suiteTempDir('reader-slices')
const ERRORS = 2 * SLICE_LINES + 100

/** ERRORS error lines, each followed by an info line the pre-filter drops: one read, one batch. */
function backlog(name: string): { file: string; endOfError: (n: number) => number } {
  const file = join(dir, `${name}.log`)
  const lines: string[] = []
  for (let i = 0; i < ERRORS; i++)
    lines.push(JSON.stringify({ level: 50, msg: `e${i}` }), JSON.stringify({ level: 30, msg: `i${i}` }))
  writeFileSync(file, `${lines.join('\n')}\n`)
  // Where error line n ends: past its '\n'.
  const endOfError = (n: number): number =>
    lines.slice(0, 2 * n + 1).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)
  return { file, endOfError }
}

async function readWith(name: string, file: string, ingest: (line: AlertLine) => void) {
  const pipeline = { lowestLevel: () => 50, ingest, countLines: () => {} } as unknown as AlertPipeline
  return startSourceReader({
    source: jsonFileSource(name, file),
    stateDir: join(dir, name),
    pipeline: () => pipeline,
    log: createAgentLogger({ destination: { write: () => true } }),
  })
}

it('hands a batch of more than a slice over in order, the event loop turning between slices', async () => {
  const { file } = backlog('order')
  const turns = countLoopTurns()
  const seen: Array<{ msg: string; turn: number }> = []
  const reader = await readWith('order', file, (line) => void seen.push({ msg: line.msg, turn: turns.count }))
  try {
    await expect.poll(() => seen.length).toBe(ERRORS)
    expect(reader.stats().linesRead).toBe(2 * ERRORS)
    expect(seen.map((s) => s.msg)).toEqual(Array.from({ length: ERRORS }, (_, i) => `e${i}`))
    // One batch: without slices its lines all go through in one turn.
    const turnsOf = (from: number, to: number) => new Set(seen.slice(from, to).map((s) => s.turn)).size
    expect(turnsOf(0, SLICE_LINES)).toBe(1)
    expect(seen[SLICE_LINES]!.turn).toBeGreaterThan(seen[SLICE_LINES - 1]!.turn)
    expect(seen[2 * SLICE_LINES]!.turn).toBeGreaterThan(seen[2 * SLICE_LINES - 1]!.turn)
  } finally {
    turns.stop()
    await reader.close()
  }
})

it('checkpoints the slices that went through, and not the one a line of failed in', async () => {
  const { file, endOfError } = backlog('failing')
  const failAt = SLICE_LINES + 10
  let handled = 0
  const reader = await readWith('failing', file, () => {
    if (handled === failAt) throw new Error('state write failed')
    handled++
  })
  await expect.poll(() => reader.failure).toMatch(/could not handle a line: state write failed/)
  await reader.close()
  const checkpoint = JSON.parse(readFileSync(join(dir, 'failing', 'checkpoints', 'failing.json'), 'utf8')) as {
    files: Array<{ offset: number }>
  }
  // Through the first slice's last error line; its info line after it comes with the next slice.
  expect(checkpoint.files.map((f) => f.offset)).toEqual([endOfError(SLICE_LINES - 1)])
})
