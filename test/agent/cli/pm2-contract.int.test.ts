// What pm2 relies on, checked without pm2 itself: the ecosystem file loads with require() and points
// at the agent; the agent, forked with an IPC channel as pm2 does, says 'ready' once it serves and
// exits 0 on SIGINT.
// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { describe, expect, it } from 'vitest'
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { tempDir } from '../../helpers/temp-dir'

const root = resolve(__dirname, '../../..')
const requireFromRoot = createRequire(join(root, 'package.json'))

describe('pm2 contract', () => {
  it('ecosystem.config.js loads with require() and runs the agent with wait_ready and a kill timeout', () => {
    const { apps } = requireFromRoot('./ecosystem.config.js')
    expect(apps).toHaveLength(1)
    const [app] = apps
    expect(existsSync(app.script)).toBe(true)
    expect(app.args.slice(0, 2)).toEqual(['run', '--config'])
    expect(app).toMatchObject({ wait_ready: true, exec_mode: 'fork', instances: 1 })
    expect(app.kill_timeout).toBeGreaterThan(0)
    expect(app.max_memory_restart).toBeDefined()
  })

  it('the agent sends ready over IPC once it serves, and exits 0 on SIGINT', async () => {
    // The shipped config with its own state_dir and logs, so the test touches nothing in the repo;
    // --port 0 overrides the sandbox's 4010.
    const dir = tempDir('pm2-contract')
    const config = join(dir, 'agent.yaml')
    writeFileSync(
      config,
      `state_dir: ${join(dir, 'state')}\nsources: [{ name: app, paths: [${join(dir, 'logs')}/*.log] }]\nchannels: { sms: { type: sms, numbers: [919800000001] } }\n`,
    )
    const child = fork(join(root, 'bin', 'logx-agent.js'), ['run', '--config', config, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    let output = ''
    const banner = new Promise<void>((resolveBanner) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk
        if (output.includes('Open the inbox')) resolveBanner()
      })
    })
    const [message] = await once(child, 'message')
    expect(message).toBe('ready')
    await banner
    // A fresh clone has no logs directory: the agent makes the one its glob watches.
    expect(existsSync(join(dir, 'logs'))).toBe(true)
    const inbox = /inbox URL:\s+(\S+)/.exec(output)?.[1]
    expect(inbox).toBeDefined()
    const response = await fetch(inbox!)
    expect(response.status).toBe(200)
    child.kill('SIGINT')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(output).toContain('logx-agent stopped')
  })
})
