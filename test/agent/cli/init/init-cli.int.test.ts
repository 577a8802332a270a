// `logx-agent init --yes` as a user runs it: the built bin in a child process, in an empty directory
// with a ./logs, on a HOME with pm2 logs; then the built `validate` on what it wrote.
import '../../../helpers/needs-build'
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../helpers/temp-dir'

const bin = join(__dirname, '..', '..', '..', '..', 'bin', 'logx-agent.js')

async function logxAgent(cwd: string, env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd, env })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

describe('logx-agent init (built)', () => {
  it('--yes writes config/agent.yaml that the built validate passes; a second run refuses to overwrite', async () => {
    const root = tempDir('init-cli')
    const app = join(root, 'app')
    const home = join(root, 'home')
    mkdirSync(join(app, 'logs'), { recursive: true })
    mkdirSync(join(home, '.pm2', 'logs'), { recursive: true })
    writeFileSync(join(home, '.pm2', 'logs', 'web-out.log'), '')
    // A PATH without journalctl: what is found is only what this test made.
    const env = { HOME: home, PATH: '/nonexistent' }
    const made = await logxAgent(app, env, 'init', '--yes', '--person', 'asha', '--phone', '+919800000001')
    expect(made.stderr).toBe('')
    expect(made.code).toBe(0)
    expect(made.stdout).toContain('Wrote config/agent.yaml: 2 source(s) (pm2-web, app)')
    expect(made.stdout).toMatch(
      /validate config\/agent\.yaml\n {2}npx logx-agent run\n[^\n]*\n {2}npx logx-agent test-page asha\n/,
    )
    expect(readFileSync(join(app, 'config', 'agent.yaml'), 'utf8')).toContain('- name: pm2-web')
    const valid = await logxAgent(app, env, 'validate')
    expect(valid).toMatchObject({ code: 0, stdout: expect.stringContaining('config/agent.yaml: valid (2 sources') })
    const again = await logxAgent(app, env, 'init', '--yes')
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('exists; init writes nothing over it')
  })
})
