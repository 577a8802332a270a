// `run` and `validate` without a config file: one paragraph saying where they looked and how to make
// one (`logx-agent init`), exit 2; a file that exists but is bad is still every problem, exit 1.
import { writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCommand } from '../../../../agent/cli/run-command'
import { validateCommand } from '../../../../agent/cli/validate-command'
import { tempDir } from '../../../helpers/temp-dir'
import { capture } from '../capture'

describe('no config file', () => {
  it('run says where it looked and to run init, exit 2', async () => {
    const file = relative(process.cwd(), join(tempDir('missing'), 'agent.yaml'))
    const { io, out } = capture()
    const code = await runCommand({ config: file, port: undefined, host: undefined }, io)
    expect(code).toBe(2)
    const { stderr } = out()
    expect(stderr).toContain(`no config file at ${file} (looked for ${resolve(file)})`)
    expect(stderr).toContain(`Make one with \`npx logx-agent init --config ${file}\``)
    expect(stderr).toContain('name another with --config FILE')
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('validate says the same of the file it was given, with init --config for it', async () => {
    const file = join(tempDir('missing'), 'ops.yaml')
    const { io, out } = capture()
    expect(await validateCommand({ config: file }, io)).toBe(2)
    expect(out().stderr).toContain(`Make one with \`npx logx-agent init --config ${file}\``)
  })

  it('a config that exists but is not valid is still its problems, exit 1', async () => {
    const file = join(tempDir('missing'), 'bad.yaml')
    writeFileSync(file, 'sources: 3\n')
    const { io, out } = capture()
    expect(await validateCommand({ config: file }, io)).toBe(1)
    expect(out().stderr).not.toContain('logx-agent init')
  })
})
