// A power cut must not lose a new kind whose lines are checkpointed: before a file source's checkpoint
// is written, the agent's kinds are fsynced (then the outbox), so the kind is on disk first.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import type { IntakePath } from '../../../agent/daemon/intake-readers'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { createSourceReaders } from '../../../agent/daemon/source-readers'
import type { AlertPipeline, Dispatcher } from '../../../agent/delivery/types'
import { pollUntil } from '../../helpers/poll-until'
import { suiteTempDir } from '../../helpers/temp-dir'
import { jsonFileSource } from './file-source'

const dir = suiteTempDir('readers-kinds-sync')

it('syncs the kinds before the outbox and before the checkpoint that commits their lines', async () => {
  const file = join(dir, 'app.log')
  writeFileSync(file, `${JSON.stringify({ level: 50, msg: 'db down' })}\n`)
  const source = jsonFileSource('app', file)
  const checkpoint = join(dir, 'state', 'checkpoints', 'app.json')
  const order: string[] = []
  const kinds = { sync: () => void order.push(existsSync(checkpoint) ? 'kinds after checkpoint' : 'kinds') }
  const dispatcher = {
    syncAsync: () => {
      order.push('outbox')
      return Promise.resolve()
    },
  } as unknown as Dispatcher
  const pipeline = { lowestLevel: () => 50, ingest: () => {}, countLines: () => {} } as unknown as AlertPipeline
  const log = createAgentLogger({ destination: { write: () => true } })
  const readers = createSourceReaders({ stateDir: join(dir, 'state'), log, now: Date.now, tap: undefined, kinds })
  await readers.start(source)
  try {
    readers.open({ pipeline, dispatcher } as unknown as IntakePath)
    await pollUntil('the checkpoint written', () => existsSync(checkpoint))
    expect(order.slice(0, 2)).toEqual(['kinds', 'outbox'])
  } finally {
    await readers.closeAll()
  }
})
