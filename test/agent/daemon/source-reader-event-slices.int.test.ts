// A reader hands a big batch of events (a multi-line rule, a container log) to the pipeline in slices
// (agent/events/event-slices.ts): the event loop turns between them, the events arrive in order and
// once, and the checkpoint never passes the first line of an event not handled, so a reader started
// again after a stop mid-batch loses none.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { SLICE_LINES } from '../../../agent/daemon/batch-slices'
import { suiteTempDir } from '../../helpers/temp-dir'
import { criBacklog, multilineBacklog, rawLinesBefore, readWith, type Backlog } from './event-backlog'
import { countLoopTurns } from '../../helpers/loop-turns'

const dir = suiteTempDir('reader-event-slices')

/** The events the pipeline gets, each with the turn of the event loop it came in (a setImmediate chain). */
async function readAll(name: string, backlog: Backlog): Promise<Array<{ raw: string; turn: number }>> {
  const turns = countLoopTurns()
  const seen: Array<{ raw: string; turn: number }> = []
  const reader = await readWith(
    dir,
    name,
    backlog.source,
    (line) => void seen.push({ raw: line.raw, turn: turns.count }),
  )
  try {
    await expect.poll(() => seen.length).toBe(backlog.events.length)
    expect(reader.failure).toBeUndefined()
  } finally {
    turns.stop()
    await reader.close()
  }
  return seen
}

/** Events per turn of the loop: a slice holds SLICE_LINES candidates (or raw lines), one open event more. */
function mostInOneTurn(seen: ReadonlyArray<{ turn: number }>): number {
  const perTurn = new Map<number, number>()
  for (const { turn } of seen) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1)
  return Math.max(...perTurn.values())
}

it('hands a multi-line backlog over in slices: every event, in order, once, the loop turning between', async () => {
  const backlog = multilineBacklog(dir, 'multiline')
  const seen = await readAll('multiline', backlog)
  expect(seen.map((s) => s.raw)).toEqual(backlog.events)
  // Handled whole, the batch's events would all come in one turn; a batch's last slice and the
  // next batch's first may share one (the tailer hands a waiting batch over without a turn).
  expect(mostInOneTurn(seen)).toBeLessThanOrEqual(2 * (SLICE_LINES + 1))
  expect(seen[0]?.turn).toBeLessThan(seen[SLICE_LINES + 1]?.turn as number)
  expect(seen[SLICE_LINES + 1]?.turn).toBeLessThan(seen[2 * SLICE_LINES + 2]?.turn as number)
})

it('hands a container backlog over in slices: every line, in order, once, the loop turning between', async () => {
  const backlog = criBacklog(dir, 'cri', -1)
  const seen = await readAll('cri', backlog)
  expect(seen.map((s) => s.raw)).toEqual(backlog.events)
  expect(mostInOneTurn(seen)).toBeLessThanOrEqual(2 * SLICE_LINES)
  expect(seen[0]?.turn).toBeLessThan(seen[SLICE_LINES]?.turn as number)
  expect(seen[SLICE_LINES]?.turn).toBeLessThan(seen[2 * SLICE_LINES]?.turn as number)
})

/**
 * Reads until the pipeline fails on event `failAt` (in the batch's second slice), then reads again
 * with a pipeline that works: the checkpoint between held no line of an event not handled.
 */
async function failThenRestart(name: string, backlog: Backlog, failAt: number): Promise<number> {
  const handled: string[] = []
  const failing = await readWith(dir, name, backlog.source, (line) => {
    if (handled.length === failAt) throw new Error('state write failed')
    handled.push(line.raw)
  })
  await expect.poll(() => failing.failure).toMatch(/could not handle a line: state write failed/)
  await failing.close()
  const checkpoint = JSON.parse(readFileSync(join(dir, name, 'checkpoints', `${name}.json`), 'utf8')) as {
    files: Array<{ offset: number }>
  }
  const [offset] = checkpoint.files.map((f) => f.offset)
  expect(offset).toBeLessThanOrEqual(backlog.startOf(failAt))

  const again: string[] = []
  const restarted = await readWith(dir, name, backlog.source, (line) => void again.push(line.raw))
  try {
    // Read again from the checkpoint: at least the event that failed, nothing lost, nothing twice.
    await expect.poll(() => again.at(-1)).toBe(backlog.events.at(-1))
    const from = backlog.events.indexOf(again[0] as string)
    expect(from).toBeLessThanOrEqual(failAt)
    expect(again).toEqual(backlog.events.slice(from))
  } finally {
    await restarted.close()
  }
  return offset as number
}

it('checkpoints a multi-line batch through its last ended event, and a restart reads the rest', async () => {
  const backlog = multilineBacklog(dir, 'multiline-failing')
  const offset = await failThenRestart('multiline-failing', backlog, SLICE_LINES + 10)
  // The first slice's last error (no info line after it) was still open when the slice ended (the
  // next error, in the second slice, ends it): the commit stops at its first line.
  expect(offset).toBe(backlog.startOf(SLICE_LINES - 1))
})

it('checkpoints a container batch before a line split across two slices, and a restart reads it whole', async () => {
  // Raw line SLICE_LINES - 1, the first slice's last, is the first part of the line the second joins.
  let splitAt = SLICE_LINES - 1
  while (splitAt > 0 && rawLinesBefore(splitAt) > SLICE_LINES - 1) splitAt--
  const backlog = criBacklog(dir, 'cri-failing', splitAt)
  expect(rawLinesBefore(splitAt)).toBe(SLICE_LINES - 1)
  const offset = await failThenRestart('cri-failing', backlog, splitAt)
  expect(offset).toBe(backlog.startOf(splitAt))
})
