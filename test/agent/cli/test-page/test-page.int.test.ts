// `logx-agent test-page` alone (no agent runs): the alert path and the missed-call watcher start in
// the command's process on the embedded sandbox; the page reaches the inbox marked as a test, its
// lead says test: true, and the sandbox's simulated missed call from the person acknowledges it.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testPageCommand, type TestPageArgs } from '../../../../agent/cli/test-page/command'
import { pollUntil } from '../../../helpers/poll-until'
import { tempDir } from '../../../helpers/temp-dir'
import { capture } from '../capture'
import { records } from '../../daemon/helpers'

const ASHA = '919800000001'

function writeConfig(dir: string): string {
  const file = join(dir, 'agent.yaml')
  writeFileSync(
    file,
    `messaging:
  sandbox:
    listen: 127.0.0.1:0
state_dir: ${join(dir, 'state')}
sources:
  - name: app
    paths: [${join(dir, 'logs')}/*.log]
people:
  asha: { phone: "${ASHA}" }
channels:
  oncall-sms: { type: sms, people: [asha] }
acknowledge:
  poll_interval: 1s
rules:
  - name: errors
    notify: [oncall-sms]
    incident: true
`,
  )
  return file
}

const args = (config: string, target: string, timeout: string): TestPageArgs => ({
  config,
  target,
  timeout,
  json: false,
  url: undefined,
  tokenFile: undefined,
})

describe('logx-agent test-page, alone on the embedded sandbox', () => {
  it('pages the person as a test, and their simulated missed call acknowledges it (exit 0)', async () => {
    const dir = tempDir('test-page')
    const config = writeConfig(dir)
    const { io, out } = capture()
    const running = testPageCommand(args(config, 'asha', '60s'), io, {})
    const inbox = await pollUntil('the inbox URL', () => /simulate missed call.*?: (http\S+)/.exec(out().stdout)?.[1])
    const base = new URL(inbox).origin
    const sms = await pollUntil('the test SMS', async () =>
      (await records(base, 'sms')).find((r) => String(r.record.sms).startsWith('TEST PAGE from logx-agent')),
    )
    expect(String(sms.record.sms)).toMatch(/reply by missed call to \S+ to confirm/)
    const lead = await pollUntil('the test lead', async () => (await records(base, 'lead'))[0])
    expect(JSON.stringify(lead.record)).toContain('"test":"true"')
    await pollUntil('the page waiting', () => out().stdout.includes('queued: sms via oncall-sms'))
    const call = await fetch(`${base}/_sandbox/missed-calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ caller: `+${ASHA}` }),
    })
    expect(call.status).toBe(201)
    expect(await running).toBe(0)
    const { stdout } = out()
    expect(stdout).toContain('sent: sms via oncall-sms, the API lists it')
    expect(stdout).toMatch(/acknowledged: missed call from \+?919800000001 \(asha\)/)
    expect(stdout).toContain('the loop works')
  }, 60_000)

  it('exits 1 when no missed call comes before the wait ends', async () => {
    const dir = tempDir('test-page')
    const { io, out } = capture()
    expect(await testPageCommand(args(writeConfig(dir), 'oncall-sms', '2s'), io, {})).toBe(1)
    expect(out().stdout).toContain('no missed call before the wait ended')
  }, 30_000)

  it('exits 2 for a name that is neither a person nor a channel, and for a bad --timeout', async () => {
    const dir = tempDir('test-page')
    const config = writeConfig(dir)
    const first = capture()
    expect(await testPageCommand(args(config, 'nobody', '5m'), first.io, {})).toBe(2)
    expect(first.out().stderr).toContain('nobody: no such person or channel (people: asha; channels: oncall-sms)')
    const second = capture()
    expect(await testPageCommand(args(config, 'asha', 'soon'), second.io, {})).toBe(2)
    expect(second.out().stderr).toContain('--timeout: must be')
  })
})
