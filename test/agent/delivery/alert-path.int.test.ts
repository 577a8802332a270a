// The alert path as a caller builds it: a setup the engine refuses is refused before the outbox
// opens, so a failed start never sends what the journal holds behind the error.
import { afterEach, expect, it } from 'vitest'
import { join } from 'node:path'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import { createAlertPath, type AlertPathOptions } from '../../../agent/acknowledge/with-actions'
import { setupOfConfig } from '../../../agent/delivery/alert-setup'
import { toAlertLine } from '../../../agent/events/alert-line'
import { startSandbox, type Sandbox } from '../../../agent/sandbox'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const quiet = { info() {}, warn() {}, error() {} }

function configIn(dir: string) {
  const result = parseAgentConfig(
    `state_dir: ${dir}\nsources: [{ name: app, paths: [${dir}/*.log] }]\nchannels: { oncall: { type: sms, numbers: [919800000001] } }\n`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config
}

it('a path whose setup the engine refuses opens no outbox: the journal is sent once, by the next path', async () => {
  const dir = tempDir('alert-path')
  const sandbox: Sandbox = await startSandbox({ port: 0 })
  cleanups.push(() => sandbox.close())
  const config = configIn(dir)
  const base: Omit<AlertPathOptions, 'setup' | 'api'> = {
    statePath: join(dir, 'incidents.json'),
    outbox: { path: join(dir, 'outbox.jsonl'), backoff: { minDelayMs: 10, maxDelayMs: 20 } },
    crm: undefined,
    timeoutMs: 2000,
    log: quiet,
    now: Date.now(),
  }
  // 1. A page journaled while the API cannot be reached, left in the journal. Closed once its first
  // attempt failed (the next one is a minute away): nothing of it is in flight any more.
  const first = createAlertPath({
    ...base,
    outbox: { ...base.outbox, backoff: { minDelayMs: 60_000, maxDelayMs: 60_000 } },
    setup: setupOfConfig(config, []),
    api: { baseUrl: 'http://127.0.0.1:9', apiKey: sandbox.apiKey },
  })
  first.pipeline.ingest(toAlertLine('{"level":50,"msg":"db down"}', 'json', 'app').line, Date.now())
  await pollUntil('the page failed', () => (first.dispatcher.stats().failed.sms ?? 0) >= 1 || undefined)
  await first.close()

  // 2. A path whose engine refuses its setup (two channels of one name): its error, and no outbox left behind.
  const broken = setupOfConfig({ ...config, channels: [...config.channels, ...config.channels] }, [])
  expect(() =>
    createAlertPath({ ...base, setup: broken, api: { baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey } }),
  ).toThrow('duplicate channel name')

  // 3. The next path sends the journaled page; had step 2 left its outbox running, the page would go twice.
  const next = createAlertPath({
    ...base,
    setup: setupOfConfig(config, []),
    api: { baseUrl: sandbox.info.baseUrl, apiKey: sandbox.apiKey },
  })
  cleanups.push(() => next.close())
  expect(await next.dispatcher.drain(5000)).toEqual({ drained: true, pending: 0 })
  expect(sandbox.store.all('sms').map((e) => e.record.sms)).toEqual(['FIRING db down (1x, default)'])
})
