// The package as a new user gets it (issue #33 item 5): the project packed (`npm pack`, the build
// as it is: no prepare script), the tarball installed into an empty directory, and from there
// `npx logx-agent init --yes`, `validate`, `run` on the embedded sandbox with an error logged by a
// small app through `require('logx')` reaching the sandbox's inbox, then `test-page` acknowledged
// by the sandbox's simulated missed call. The agent is SIGKILLed at the end if it is still up.
import '../helpers/needs-build'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot } from '../helpers/build'
import { pollUntil } from '../helpers/poll-until'
import { suiteTempDir } from '../helpers/temp-dir'
import { records } from '../agent/daemon/helpers'

const ASHA = '919800000001'
const root = suiteTempDir('package')
const app = join(root, 'app')

interface Ran {
  status: number | null
  stdout: string
  stderr: string
}

function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Ran {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs, env: { ...process.env } })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const npx = (args: string[], timeoutMs?: number): Ran =>
  run('npx', ['--no-install', 'logx-agent', ...args], app, timeoutMs)

/** `npm ci` filled the cache; a cache without some dependency (a fresh machine) may fetch it. */
function install(tarball: string): Ran {
  const offline = run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], app)
  if (offline.status === 0 || !/ENOTCACHED/.test(offline.stderr)) return offline
  return run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app)
}

/** What `init --yes` does not know: the sandbox on a free port, the console for test-page, a 1 s poll. */
function fallbackConfig(): string {
  return `messaging:
  sandbox:
    listen: 127.0.0.1:0
state_dir: ./state
sources:
  - name: app
    paths: [./logs/*.log]
    start_at: beginning
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
metrics: { listen: 127.0.0.1:0 }
`
}

const APP = `const logx = require('logx')
const log = logx(logx.destination({ dest: './logs/app.log', sync: true, mkdir: true }))
log.error({ err: new Error('payment gateway unreachable') }, 'checkout failed')
`

describe('the packed package, installed into an empty directory', () => {
  let agent: ChildProcess | undefined
  let agentOut = ''

  beforeAll(() => {
    const packed = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', root], repoRoot)
    expect(packed.status, packed.stderr).toBe(0)
    const tarball = readdirSync(root).find((f) => f.endsWith('.tgz'))
    if (tarball === undefined) throw new Error(`npm pack wrote no tarball: ${packed.stdout}${packed.stderr}`)
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
    const installed = install(join(root, tarball))
    expect(installed.status, installed.stderr).toBe(0)
  }, 150_000)

  afterAll(() => {
    // npx runs the agent as its child: the whole group goes (detached made it the group's leader).
    if (agent?.pid !== undefined && agent.exitCode === null && agent.signalCode === null) {
      try {
        process.kill(-agent.pid, 'SIGKILL')
      } catch {
        // Gone meanwhile.
      }
    }
  })

  it('init, validate, run with an error reaching the inbox, and a test page acknowledged by a missed call', async () => {
    // init --yes writes a config that validates; this drill's own settings then take its place.
    const init = npx(['init', '--yes', '--config', 'starter.yaml'])
    expect(init.status, init.stderr).toBe(0)
    expect(npx(['validate', 'starter.yaml']).status).toBe(0)
    writeFileSync(join(app, 'agent.yaml'), fallbackConfig())
    const validated = npx(['validate', 'agent.yaml'])
    expect(validated.status, validated.stderr).toBe(0)

    writeFileSync(join(app, 'app.js'), APP)
    const logged = run(process.execPath, ['app.js'], app)
    expect(logged.status, logged.stderr).toBe(0)

    agent = spawn('npx', ['--no-install', 'logx-agent', 'run', '--config', 'agent.yaml'], { cwd: app, detached: true })
    agent.stdout?.on('data', (chunk: Buffer) => (agentOut += chunk.toString('utf8')))
    agent.stderr?.on('data', (chunk: Buffer) => (agentOut += chunk.toString('utf8')))
    const inbox = await pollUntil('the inbox URL in the banner', () => /inbox URL: (http\S+)/.exec(agentOut)?.[1], {
      timeoutMs: 30_000,
    })
    const base = new URL(inbox).origin
    const page = await pollUntil('the error paged to the inbox', async () =>
      (await records(base, 'sms')).find((r) => String(r.record.sms).includes('checkout failed')),
    )
    expect(String(page.record.sms)).toContain('payment gateway unreachable')

    await pollUntil('the console address', () => {
      try {
        return readFileSync(join(app, 'state', 'console.json'), 'utf8')
      } catch {
        return undefined
      }
    })
    const drill = spawn(
      'npx',
      ['--no-install', 'logx-agent', 'test-page', 'asha', '--config', 'agent.yaml', '--timeout', '60s'],
      {
        cwd: app,
      },
    )
    let drillOut = ''
    drill.stdout.on('data', (chunk: Buffer) => (drillOut += chunk.toString('utf8')))
    drill.stderr.on('data', (chunk: Buffer) => (drillOut += chunk.toString('utf8')))
    const exited = new Promise<number | null>((resolve) => drill.on('exit', (code) => resolve(code)))
    await pollUntil('the test page queued', () => drillOut.includes('queued: sms via oncall-sms'), {
      timeoutMs: 30_000,
    }).catch((err: Error) => {
      throw new Error(`${err.message}; test-page said:\n${drillOut}`)
    })
    expect(drillOut).toContain(`simulate missed call" button acknowledges it: ${inbox}`)
    const call = await fetch(`${base}/_sandbox/missed-calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ caller: `+${ASHA}` }),
    })
    expect(call.status).toBe(201)
    expect(await exited, drillOut).toBe(0)
    expect(drillOut).toMatch(/acknowledged: missed call from \+?919800000001 \(asha\)/)
    const test = (await records(base, 'sms')).find((r) => String(r.record.sms).startsWith('TEST PAGE'))
    expect(test).toBeDefined()
  }, 170_000)
})
