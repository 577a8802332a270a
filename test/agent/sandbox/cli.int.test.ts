import { describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCli } from '../../../agent/cli/main'
import { tempDir } from '../../helpers/temp-dir'

function capture() {
  let out = ''
  let err = ''
  const waiters: { needle: string; resolve: () => void }[] = []
  const check = () => {
    for (const w of [...waiters]) {
      if (out.includes(w.needle)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
    }
  }
  return {
    stdout: { write: (t: string) => ((out += t), check()) },
    stderr: { write: (t: string) => (err += t) },
    get out() {
      return out
    },
    get err() {
      return err
    },
    waitFor(needle: string): Promise<void> {
      return new Promise((resolve) => {
        waiters.push({ needle, resolve })
        check()
      })
    },
  }
}

function writeConfig(dir: string): string {
  const config = join(dir, 'agent.yaml')
  writeFileSync(
    config,
    `state_dir: ${join(dir, 'state')}\nsources: [{ name: app, paths: [${join(dir, 'logs')}/*.log] }]\n` +
      'channels: { sms: { type: sms, numbers: [919800000001] } }\n',
  )
  return config
}

// Test bodies are checked by shape, so they are read as any.
const json = (res: Response): Promise<any> => res.json()

describe('logx-agent CLI', () => {
  it('sandbox prints its four URLs, serves them, and stops cleanly on signal', async () => {
    const io = capture()
    const controller = new AbortController()
    const done = runCli(['sandbox', '--port', '0', '--api-key', 'cli-secret-key', '--activity-token', 'cli-tok'], {
      ...io,
      signal: controller.signal,
    })
    await io.waitFor('inbox URL')
    const base = /base URL:\s+(\S+)/.exec(io.out)?.[1] ?? ''
    expect(io.out).toMatch(/lead webhook URL:\s+http:\/\/127\.0\.0\.1:\d+\/webhooks\/lead\/sandbox/)
    expect(io.out).toMatch(/activity webhook URL:\s+http:\/\/127\.0\.0\.1:\d+\/webhooks\/activity/)
    expect(io.out).not.toContain('cli-secret-key')
    const info = await json(await fetch(`${base}/_sandbox/info`))
    expect(info.inboxUrl).toBe(`${base}/`)
    const res = await fetch(`${base}/api/v1/?apirequest=sms_record`, { headers: { apikey: 'cli-secret-key' } })
    expect(res.status).toBe(200)
    controller.abort()
    expect(await done).toBe(0)
    expect(io.out).toContain('logx sandbox stopped')
  })

  it('run is the default command: a missing config is exit 2; with a config it shows the inbox', async () => {
    const missing = capture()
    expect(
      await runCli(['--config', 'config/does-not-exist.yaml', '--port', '0'], {
        ...missing,
        signal: new AbortController().signal,
      }),
    ).toBe(2)
    expect(missing.err).toContain('config/does-not-exist.yaml')
    const config = writeConfig(tempDir('cli-run'))
    const io = capture()
    const controller = new AbortController()
    const done = runCli(['--config', config, '--port', '0'], { ...io, signal: controller.signal })
    await io.waitFor('Open the inbox')
    expect(io.out).toMatch(/Open the inbox at http:\/\/127\.0\.0\.1:\d+\//)
    controller.abort()
    expect(await done).toBe(0)
  })

  it('rejects bad input with exit code 2 and a message', async () => {
    const signal = new AbortController().signal
    const badFault = capture()
    expect(await runCli(['sandbox', '--port', '0', '--fault', '{nope'], { ...badFault, signal })).toBe(2)
    expect(badFault.err).toContain('--fault #1 is not valid JSON')
    const badRule = capture()
    expect(
      await runCli(['sandbox', '--port', '0', '--fault', '{"kind":"error","status":42}'], { ...badRule, signal }),
    ).toBe(2)
    expect(badRule.err).toContain('faults[0].status')
    const unknown = capture()
    expect(await runCli(['frobnicate', '--wat'], { ...unknown, signal })).toBe(2)
    // The embedded sandbox off loopback needs its own key: said in one line, no stack trace.
    const remote = capture()
    const config = writeConfig(tempDir('cli-remote'))
    expect(await runCli(['--config', config, '--host', '0.0.0.0', '--port', '0'], { ...remote, signal })).toBe(2)
    expect(remote.err).toMatch(/^logx-agent: .*allow_remote.*\n$/)
  })
})
