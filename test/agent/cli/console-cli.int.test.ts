// `logx-agent incidents` and `ack` as users run them: the built bin in a child process, finding a
// (fake) running agent through the state directory of its config, the token from the environment.
// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { incident, startFakeConsole, type FakeConsole } from './fake-console'
import { suiteTempDir } from '../../helpers/temp-dir'

const run = promisify(execFile)
const repoRoot = join(__dirname, '../../..')
const bin = join(repoRoot, 'bin/logx-agent.js')

interface Outcome {
  code: number
  stdout: string
  stderr: string
}

const dir = suiteTempDir('console-bin')
let config: string
let fake: FakeConsole

async function logxAgent(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

beforeAll(async () => {
  // npm test builds before it runs the suites; rebuilding here would rewrite dist/ under the
  // suites that run in parallel.
  expect(existsSync(join(repoRoot, 'dist/agent/cli/incidents-command.js')), 'run npm run build first').toBe(true)
  fake = await startFakeConsole()
  mkdirSync(join(dir, 'config'))
  mkdirSync(join(dir, '.logx-agent'))
  // The default --config (config/agent.yaml) in the working directory, with a relative state_dir.
  config = join(dir, 'config/agent.yaml')
  writeFileSync(
    config,
    `state_dir: .logx-agent
sources:
  - name: app
    paths: [./logs/*.log]
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    notify: oncall-sms
metrics:
  listen: 127.0.0.1:9464
`,
  )
  writeFileSync(join(dir, '.logx-agent/console.json'), fake.consoleJson())
})

afterAll(async () => {
  await fake.close()
})

describe('logx-agent incidents / ack (built bin)', () => {
  it('lists, acknowledges as $USER, and says why it cannot when the token is wrong', async () => {
    fake.incidents = [incident('errors:3fa9c0d1e2f3a4', { title: 'query failed', paged: ['asha'] })]
    const env = { LOGX_CONSOLE_TOKEN: fake.token, USER: 'asha' }

    const listed = await logxAgent(['incidents'], env)
    expect(listed.stderr).toBe('')
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(
      /^ID\s+STATE\s+COUNT\s+RULE\s+TITLE\s+PAGED\s+ACKED BY\s+LAST SEEN\n3fa9c0d1\s+firing\s+1\s+errors\s+query failed\s+asha\s+-\s+3m(?:\d+s)? ago\n$/,
    )

    const acked = await logxAgent(['ack', '3fa9'], env)
    expect(acked).toEqual({ code: 0, stdout: 'acknowledged 3fa9c0d1 query failed (by asha)\n', stderr: '' })
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      body: { by: 'asha' },
      headers: { 'x-logx-client': 'cli', authorization: `Bearer ${fake.token}` },
    })

    const again = await logxAgent(['ack', '3fa9', '--by', 'ravi'], env)
    expect(again).toEqual({ code: 1, stdout: '', stderr: 'logx-agent: already acknowledged by asha via cli\n' })

    const refused = await logxAgent(['incidents'], { LOGX_CONSOLE_TOKEN: 'tok-not-this-one' })
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: 'logx-agent: the console token was refused (set --token-file or LOGX_CONSOLE_TOKEN)\n',
    })

    const usage = await logxAgent(['silence', '--match', 'rule', '--for', '2h'], env)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('--match "rule": expected key=value')
  })

  it('answers --version, --help and a refused command line from the bundle (exit 0, 0, 2)', async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }
    expect(await logxAgent(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
    const help = await logxAgent(['ack', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/^Usage: logx-agent ack <incident> \[options\]\n/)
    expect(await logxAgent(['ack'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'logx-agent: missing argument <incident>\nRun logx-agent ack --help for usage.\n',
    })
  })
})
