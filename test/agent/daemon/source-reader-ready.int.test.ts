// A source reader reads as soon as it starts and handles lines only once `ready` resolves: the agent
// starts its readers before the alert path, which the first batch must wait for.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { AlertLine } from '../../../alerts'
import type { AlertPipeline } from '../../../agent/delivery/types'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { startSourceReader } from '../../../agent/daemon/source-reader'
import { suiteTempDir } from '../../helpers/temp-dir'
import { jsonFileSource } from './file-source'

const dir = suiteTempDir('reader-ready')

it('reads before `ready`, and hands nothing to the pipeline until it resolves', async () => {
  const file = join(dir, 'app.log')
  writeFileSync(file, `${JSON.stringify({ level: 50, msg: 'db down' })}\n${JSON.stringify({ level: 30, msg: 'ok' })}\n`)
  const source = jsonFileSource('app', file)
  const ingested: AlertLine[] = []
  // Only what a reader asks of the pipeline.
  const pipeline = {
    lowestLevel: () => 50,
    ingest: (line: AlertLine) => void ingested.push(line),
    countLines: () => {},
  } as unknown as AlertPipeline
  let markReady = (): void => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  const reader = await startSourceReader({
    source,
    stateDir: join(dir, 'state'),
    pipeline: () => pipeline,
    log: createAgentLogger({ destination: { write: () => true } }),
    ready,
  })
  try {
    await expect.poll(() => reader.stats().linesRead).toBe(2)
    // Absence is checked after the turns in which a reader without the gate handles its batch.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
    expect(ingested).toEqual([])
    markReady()
    await expect.poll(() => ingested.map((line) => line.msg)).toEqual(['db down'])
  } finally {
    await reader.close()
  }
})
