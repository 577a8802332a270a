// `logx-agent test-page` in the command table: its help, and its command line's refusals (exit 2).
import { describe, expect, it } from 'vitest'
import { cli } from '../capture'

describe('logx-agent test-page on the command line', () => {
  it('is listed with its argument and flags', async () => {
    const help = await cli(['test-page', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('test-page')
    expect(help.stdout).toContain('--timeout')
  })

  it('exits 2 without a target, with a bad --timeout, or with no config file', async () => {
    expect((await cli(['test-page'])).code).toBe(2)
    const timeout = await cli(['test-page', 'asha', '--timeout', 'soon'])
    expect(timeout.code).toBe(2)
    expect(timeout.stderr).toContain('--timeout: must be')
    const missing = await cli(['test-page', 'asha', '--config', '/nonexistent/agent.yaml'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('logx-agent init')
  })
})
