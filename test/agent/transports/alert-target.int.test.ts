// The targets called in-process (no worker thread): the same module a worker loads, fed lines
// directly, against an in-process sandbox. Faster than a worker, and the place for behaviour that
// needs many lines or an inspectable stream.
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import smsAlert from '../../../agent/transports/sms'
import { TransportErrorCodes } from '../../../agent/transports/shared/errors'
import { pollUntil } from '../../helpers/poll-until'
import { suiteTempDir } from '../../helpers/temp-dir'

let sandbox: Sandbox
const tmp = suiteTempDir('target')

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
})
afterAll(async () => {
  await sandbox.close()
})
beforeEach(() => {
  sandbox.store.reset()
})

const api = () => ({ messagingUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey })
const line = (level: number, msg: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ level, time: 1, msg, ...extra })}\n`

async function end(stream: Writable): Promise<void> {
  const closed = once(stream, 'close')
  stream.end()
  await closed
}

describe('alert target in-process', () => {
  it('ignores lines below every rule without failing on garbage, and alerts on the rest', async () => {
    const stream = await smsAlert({ ...api(), numbers: [919800000001] })
    stream.write(line(30, 'fine'))
    stream.write('not json\n{"level":50,"msg":"cut')
    stream.write(' here"}\n\u0000\u0001\n')
    stream.write(line(50, 'db down'))
    await end(stream)
    expect(sandbox.store.all('sms').map((e) => e.record.sms)).toEqual([
      'FIRING cut here (1x, default)',
      'FIRING db down (1x, default)',
    ])
  })

  it('over budget, alerts fold into one digest, which goes out at the latest at shutdown', async () => {
    const stream = await smsAlert({ ...api(), numbers: [919800000001], maxPerHour: 2, rules: [{ group_by: ['job'] }] })
    for (let job = 0; job < 10; job++) stream.write(line(50, `job ${job} failed`, { job }))
    await end(stream)
    expect(sandbox.store.all('sms').map((e) => e.record.sms)).toEqual([
      'FIRING job 0 failed (1x, rule-0)',
      'FIRING job 1 failed (1x, rule-0)',
      '8 more alerts suppressed (budget). Latest: job 9 failed',
    ])
  })

  it('repeat notices come from the tick, not from new lines only', async () => {
    const stream = await smsAlert({
      ...api(),
      numbers: [919800000001],
      tickMs: 10,
      rules: [{ repeat_interval: '50ms' }],
    })
    stream.write(line(50, 'disk full'))
    stream.write(line(50, 'disk full'))
    await pollUntil('the second SMS', () => sandbox.store.all('sms').length >= 2)
    await end(stream)
    expect(sandbox.store.all('sms').map((e) => e.record.sms)).toEqual([
      'FIRING disk full (1x, rule-0)',
      'STILL FIRING disk full (2x, rule-0)',
    ])
  })

  it('refuses a second target of the worker on the same outbox file, naming the option; the first goes on', async () => {
    const outbox = join(tmp, 'shared-outbox.jsonl')
    const first = await smsAlert({ ...api(), numbers: [919800000001], outbox })
    // Spelled differently, the same file.
    const again = smsAlert({ ...api(), numbers: [919800000002], outbox: join(tmp, 'sub', '..', 'shared-outbox.jsonl') })
    await expect(again).rejects.toMatchObject({ code: TransportErrorCodes.INVALID_OPTION, option: 'outbox' })
    await expect(again).rejects.toThrow(
      /options\.outbox: .*shared-outbox\.jsonl is already the outbox of logx-sms-alert/,
    )
    first.write(line(50, 'disk full'))
    await end(first)
    expect(sandbox.store.all('sms').map((e) => [e.record.sms, e.record.numbers])).toEqual([
      ['FIRING disk full (1x, default)', [919800000001]],
    ])
    // Once the first target is closed, the file is free again.
    const next = await smsAlert({ ...api(), numbers: [919800000002], outbox })
    await end(next)
  })

  it('an unusable outbox path fails at start with the state code and the option', async () => {
    const file = join(tmp, 'a-file')
    writeFileSync(file, '')
    await expect(smsAlert({ ...api(), numbers: [919800000001], outbox: join(file, 'q.jsonl') })).rejects.toMatchObject({
      code: TransportErrorCodes.STATE,
      option: 'outbox',
    })
  })
})
