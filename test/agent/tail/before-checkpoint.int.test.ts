// beforeCheckpointWrite: the agent fsyncs its outbox there, so a checkpoint can never be on disk
// ahead of the alerts of the lines it commits.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createTailer, TailErrorCodes, type LineBatch, type Tailer } from '../../../agent/tail'
import { firstBatch } from './helpers'
import { tempDir } from '../../helpers/temp-dir'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

it('runs the hook before every checkpoint write, and a throwing hook keeps the checkpoint where it was', async () => {
  const dir = tempDir('tail-before-checkpoint')
  const file = join(dir, 'app.log')
  const checkpointPath = join(dir, 'tail.json')
  writeFileSync(file, 'one\ntwo\n')
  const events: string[] = []
  let failing = false
  const tailer = await createTailer({
    paths: file,
    startAt: 'beginning',
    checkpointPath,
    beforeCheckpointWrite: () => {
      events.push(existsSync(checkpointPath) ? 'hook, checkpoint present' : 'hook, no checkpoint yet')
      if (failing) throw new Error('disk full')
    },
  })
  cleanups.push(() => tailer.close())
  const batch = await firstBatch(tailer)
  await tailer.commit(batch)
  // The first write ran the hook before there was any checkpoint; background writes run it too.
  expect(events[0]).toBe('hook, no checkpoint yet')
  const offsets = (): number[] =>
    (JSON.parse(readFileSync(checkpointPath, 'utf8')) as { files: { offset: number }[] }).files.map((f) => f.offset)
  expect(offsets()).toEqual([8])

  failing = true
  writeFileSync(file, 'one\ntwo\nthree\n')
  const next = await firstBatch(tailer)
  await expect(tailer.commit(next)).rejects.toMatchObject({
    code: TailErrorCodes.CHECKPOINT_WRITE,
    message: expect.stringContaining('disk full'),
  })
  expect(offsets()).toEqual([8])
  // close() writes a last checkpoint, which would fail the same way.
  failing = false
})

it('waits for a hook that returns a promise, writes the offsets taken before it ran, and keeps the checkpoint when it rejects', async () => {
  const dir = tempDir('tail-before-checkpoint-async')
  const file = join(dir, 'app.log')
  const checkpointPath = join(dir, 'tail.json')
  writeFileSync(file, 'one\ntwo\n')
  // Each write's hook, pending until the test settles it (a background write may come first).
  const hooks: { resolve: () => void; reject: (err: Error) => void }[] = []
  const tailer = await createTailer({
    paths: file,
    startAt: 'beginning',
    checkpointPath,
    beforeCheckpointWrite: () => new Promise<void>((resolve, reject) => hooks.push({ resolve, reject })),
  })
  cleanups.push(() => tailer.close())
  const offsets = (): number[] =>
    (JSON.parse(readFileSync(checkpointPath, 'utf8')) as { files: { offset: number }[] }).files.map((f) => f.offset)
  const settleAll = async (settle: (hook: (typeof hooks)[number]) => void, until: Promise<unknown>): Promise<void> => {
    let done = false
    void until.then(
      () => (done = true),
      () => (done = true),
    )
    while (!done) {
      const hook = hooks.shift()
      if (hook !== undefined) settle(hook)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  const batches = tailer[Symbol.asyncIterator]()
  const first = (await batches.next()).value as LineBatch
  const written = tailer.commit(first)
  await expect.poll(() => hooks.length).toBeGreaterThan(0)
  // While a hook is pending, its write is not on disk.
  expect(existsSync(checkpointPath)).toBe(false)
  await settleAll((hook) => hook.resolve(), written)
  expect(offsets()).toEqual([8])

  writeFileSync(file, 'one\ntwo\nthree\n')
  const second = (await batches.next()).value as LineBatch
  const failed = tailer.commit(second)
  await settleAll(
    (hook) => hook.reject(new Error('fsync failed')),
    failed.catch(() => undefined),
  )
  await expect(failed).rejects.toMatchObject({
    code: TailErrorCodes.CHECKPOINT_WRITE,
    message: expect.stringContaining('fsync failed'),
  })
  expect(offsets()).toEqual([8])
  // close() writes a last checkpoint through the hook too, with the line committed since.
  await settleAll((hook) => hook.resolve(), tailer.close())
  expect(offsets()).toEqual([14])
})

it('rejects a hook that is not a function, naming the option', async () => {
  await expect(
    createTailer({ paths: 'x.log', beforeCheckpointWrite: 'sync' as unknown as () => void }),
  ).rejects.toMatchObject({
    code: TailErrorCodes.INVALID_OPTION,
    path: 'beforeCheckpointWrite',
  })
})
