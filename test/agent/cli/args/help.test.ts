// The help of the real command table, and the lines runCli prints: every command has a usage line,
// its arguments, its options with their defaults and its examples, all within 100 columns.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { WIDTH, wrap } from '../../../../agent/cli/args/help'
import { COMMANDS } from '../../../../agent/cli/commands'
import { cli } from '../capture'

const everyCommand: string[][] = COMMANDS.flatMap((command) => [
  [command.name],
  ...(command.subcommands ?? []).map((sub) => [command.name, sub.name]),
])

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => line.length))

describe('logx-agent --help', () => {
  it('lists every command and subcommand, the default one marked, within 100 columns', async () => {
    const out = await cli(['--help'])
    expect(out.code).toBe(0)
    expect(out.stderr).toBe('')
    expect(out.stdout).toMatch(/^Usage: logx-agent <command> \[options\]\n/)
    for (const words of everyCommand) expect(out.stdout).toMatch(new RegExp(`^  ${words.join(' ')}\\b`, 'm'))
    expect(out.stdout).toMatch(/\(the default\s+command\)/)
    expect(out.stdout).toContain('--version')
    expect(widest(out.stdout)).toBeLessThanOrEqual(WIDTH)
    expect((await cli(['-h'])).stdout).toBe(out.stdout)
  })

  it.each(everyCommand.map((words) => [words.join(' '), words]))('%s --help and -h', async (_, words) => {
    const out = await cli([...words, '--help'])
    expect(out.code).toBe(0)
    expect(out.stdout).toMatch(new RegExp(`^Usage: logx-agent ${words.join(' ')}[ \\n]`))
    expect(out.stdout).toContain('  -h, --help')
    expect(widest(out.stdout)).toBeLessThanOrEqual(WIDTH)
    expect((await cli([...words, '-h'])).stdout).toBe(out.stdout)
  })

  it('shows arguments, options with their defaults, repeatable ones and examples', async () => {
    const testRule = (await cli(['test-rule', '--help'])).stdout
    expect(testRule).toContain('Usage: logx-agent test-rule <config> <logfile...> [options]')
    expect(testRule).toMatch(/^ {2}logfile +log files, read from their first line$/m)
    expect(testRule).toMatch(/^ {2}--json +print the report as JSON \[default: false\]$/m)
    expect(testRule).toContain('  logx-agent test-rule config/agent.yaml logs/app.log --rule errors\n')
    const validate = (await cli(['validate', '--help'])).stdout
    expect(validate).toContain('Usage: logx-agent validate [config] [options]')
    expect(validate).toContain('[default: config/agent.yaml]')
    const sandbox = (await cli(['sandbox', '--help'])).stdout
    expect(sandbox).toMatch(/^ {2}--port <number> +port to listen on \(0 picks a free one\) \[default: 4010\]$/m)
    expect(sandbox).toMatch(/--allow-remote[^\n]*\n[^\n]*\[default: false\]/)
    expect(sandbox).toMatch(/\[repeatable\]/)
    const silence = (await cli(['silence', '--help'])).stdout
    expect(silence).toContain('Subcommands:\n  silence list ')
    expect(silence).toContain('  silence expire <id> ')
  })
})

describe('what runCli prints', () => {
  it("--version is package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as {
      version: string
    }
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('a refused line: one line naming the problem, the help to run, exit 2, nothing on stdout', async () => {
    expect(await cli(['frobnicate', '--wat'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'logx-agent: unknown command "frobnicate"\nRun logx-agent --help for usage.\n',
    })
    expect(await cli(['oncall', '--handoffs', 'three'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'logx-agent: --handoffs "three": expected a number\nRun logx-agent oncall --help for usage.\n',
    })
    expect((await cli(['silence', 'expire'])).stderr).toBe(
      'logx-agent: missing argument <id>\nRun logx-agent silence expire --help for usage.\n',
    )
    expect((await cli(['--confg', 'a.yaml'])).stderr).toBe(
      'logx-agent: unknown option --confg\nRun logx-agent --help for usage.\n',
    )
    expect((await cli(['silence', 'list', '--match', 'rule=db'])).stderr).toContain('unknown option --match')
  })
})

describe('wrap', () => {
  it('breaks at spaces within the width; a longer word stands alone', () => {
    expect(wrap('aa bb cc', 5)).toEqual(['aa bb', 'cc'])
    expect(wrap('  a   b  ', 10)).toEqual(['a b'])
    expect(wrap('abcdefgh ij', 4)).toEqual(['abcdefgh', 'ij'])
    expect(wrap('', 10)).toEqual([])
  })
})
