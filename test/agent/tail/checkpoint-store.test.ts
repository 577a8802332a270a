import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CHECKPOINT_VERSION,
  createCheckpointWriter,
  loadCheckpoint,
  type CheckpointEntry,
} from '../../../agent/tail/checkpoint-store'
import { TailErrorCodes } from '../../../agent/tail'
import { onCorruptState, type CorruptStateReport } from '../../../agent/storage/corrupt-state'
import { tempDir } from '../../helpers/temp-dir'

const entry = (offset: number): CheckpointEntry => ({
  dev: '64768',
  ino: '1234',
  head: 'ab'.repeat(16),
  headLength: 256,
  offset,
  path: '/var/log/app.log',
})

describe('checkpoint store', () => {
  it('reads nothing when there is no file yet', async () => {
    expect(await loadCheckpoint(join(tempDir('tail-checkpoint'), 'missing.json'))).toEqual([])
  })

  it('round-trips a versioned file and leaves no temp file behind', async () => {
    const dir = tempDir('tail-checkpoint')
    const path = join(dir, 'checkpoint.json')
    let offset = 10
    const writer = createCheckpointWriter(path, () => [entry(offset)])
    await writer.request()
    offset = 20
    await writer.request()
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: CHECKPOINT_VERSION, files: [entry(20)] })
    expect(await loadCheckpoint(path)).toEqual([entry(20)])
    expect(readdirSync(dir)).toEqual(['checkpoint.json'])
  })

  it('shares writes between requests made while one is in flight, each seeing its own state', async () => {
    const path = join(tempDir('tail-checkpoint'), 'checkpoint.json')
    let offset = 0
    const writer = createCheckpointWriter(path, () => [entry(offset)])
    const requests: Array<Promise<void>> = []
    for (offset = 1; offset <= 20; offset++) requests.push(writer.request())
    offset = 20
    await Promise.all(requests)
    expect(writer.writes).toBeLessThanOrEqual(2)
    expect((await loadCheckpoint(path))[0]?.offset).toBe(20)
  })

  it('removes temp files left by a process killed mid-write when it loads', async () => {
    const dir = tempDir('tail-checkpoint')
    const path = join(dir, 'checkpoint.json')
    writeFileSync(join(dir, '.checkpoint.json.4242.tmp'), '{"version":1,"fi')
    writeFileSync(join(dir, 'other.txt'), 'kept')
    expect(await loadCheckpoint(path)).toEqual([])
    expect(readdirSync(dir)).toEqual(['other.txt'])
  })

  it('refuses an unknown version with its code; keeps aside a damaged file and uses its whole entries', async () => {
    const dir = tempDir('tail-checkpoint')
    const future = join(dir, 'future.json')
    writeFileSync(future, JSON.stringify({ version: 99, files: [] }))
    await expect(loadCheckpoint(future)).rejects.toMatchObject({
      code: TailErrorCodes.CHECKPOINT_VERSION,
      path: future,
    })
    const reports: CorruptStateReport[] = []
    const stop = onCorruptState((report) => reports.push(report))
    try {
      const damaged = join(dir, 'damaged.json')
      const whole = JSON.stringify({ version: 1, files: [entry(10), entry(20)] })
      writeFileSync(damaged, whole.slice(0, whole.lastIndexOf('"dev"') + 3))
      expect(await loadCheckpoint(damaged)).toEqual([entry(10)])
      const zeroed = join(dir, 'zeroed.json')
      writeFileSync(zeroed, Buffer.alloc(100))
      expect(await loadCheckpoint(zeroed)).toEqual([])
    } finally {
      stop()
    }
    expect(reports.map((r) => r.name)).toEqual(['checkpoints', 'checkpoints'])
    expect(readdirSync(dir).filter((name) => name.includes('.corrupt-'))).toHaveLength(2)
    const malformed = join(dir, 'malformed.json')
    writeFileSync(malformed, JSON.stringify({ version: 1, files: [{ dev: 1 }, entry(5)] }))
    expect(await loadCheckpoint(malformed)).toEqual([entry(5)])
  })

  it('reports a write that cannot happen', async () => {
    const writer = createCheckpointWriter(join(tempDir('tail-checkpoint'), 'no-such-dir', 'checkpoint.json'), () => [])
    await expect(writer.request()).rejects.toMatchObject({ code: TailErrorCodes.CHECKPOINT_WRITE })
  })
})
