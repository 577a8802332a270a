// `logx-agent validate` as users run it: the built bin in a child process.
// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { fixtures, repoRoot } from './helpers'

const run = promisify(execFile)
const bin = join(repoRoot, 'bin/logx-agent.js')

interface Outcome {
  code: number
  stdout: string
  stderr: string
}

async function validate(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, 'validate', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', ...env },
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

beforeAll(() => {
  // npm test builds before it runs the suites; rebuilding here would rewrite dist/ under the
  // suites that run in parallel.
  expect(existsSync(join(repoRoot, 'dist/agent/cli/validate-command.js')), 'run npm run build first').toBe(true)
})

describe('logx-agent validate', () => {
  it('exits 0 on the shipped config and says what it found', async () => {
    const out = await validate(['config/agent.yaml'])
    expect(out).toEqual({
      code: 0,
      stdout: 'config/agent.yaml: valid (1 source, 2 channels, 1 rule; messaging: embedded sandbox)\n',
      stderr: '',
    })
  })

  it('exits 1 and prints each problem on its own line, as file:line:col path: message', async () => {
    const file = join(fixtures, 'bad/unknown-channel.yaml')
    const out = await validate([file])
    expect(out.code).toBe(1)
    expect(out.stdout).toBe('')
    const expected = readFileSync(join(fixtures, 'bad/unknown-channel.expected'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => `${join(fixtures, 'bad')}/${line}`)
    expect(out.stderr.trimEnd().split('\n')).toEqual([...expected, `${file}: 2 problems`])
  })

  it('reads ${VAR} references from its environment and never prints their values', async () => {
    const file = 'config/examples/production.yaml'
    const out = await validate([file], { LOGX_API_KEY: 'sk-cli-secret' })
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(
      `${file}:11:24 messaging.activity_token_file: cannot read activity_token from "/run/secrets/logx-activity-token" (ENOENT)`,
    )
    expect(out.stderr).not.toContain('sk-cli-secret')
    const unset = await validate([file])
    expect(unset.stderr).toContain(`${file}:8:12 messaging.api_key: \${LOGX_API_KEY} is not set`)
  })

  it('a missing file says where it looked and how to make one; an extra argument is a usage error (exit 2)', async () => {
    const out = await validate(['no/such.yaml'])
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/^logx-agent: no config file at no\/such\.yaml \(looked for \S+\/no\/such\.yaml\)/)
    expect(out.stderr).toContain('npx logx-agent init --config no/such.yaml')
    const usage = await validate(['a.yaml', 'b.yaml'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('unexpected argument "b.yaml"')
  })

  it('has --help', async () => {
    const { stdout } = await run(process.execPath, [bin, 'validate', '--help'], { cwd: repoRoot })
    expect(stdout).toContain('logx-agent validate [config]')
    // The help wraps at 100 columns: compare the words, not where the lines break.
    expect(stdout.replace(/\s+/g, ' ')).toContain('exit 0 valid, 1 invalid')
  })
})
