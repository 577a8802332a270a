// The parser against a small table of its own: one test per rule of resolve.ts, read-options.ts,
// bind.ts and parse.ts, each through parseCommandLine as runCli calls it.
import { describe, expect, it } from 'vitest'
import { UsageError, UsageErrorCodes } from '../../../../agent/cli/args/errors'
import { parseCommandLine, type CommandLine } from '../../../../agent/cli/args/parse'
import { command } from '../../../../agent/cli/args/spec'

const done = async (): Promise<number> => 0

const table = [
  command({
    name: 'serve',
    aliases: ['s'],
    isDefault: true,
    summary: 'serve',
    options: {
      config: { type: 'string', default: 'a.yaml', describe: 'config' },
      port: { type: 'number', describe: 'port' },
      json: { type: 'boolean', describe: 'json' },
      tag: { type: 'string', repeatable: true, describe: 'tag' },
      verbose: { type: 'boolean', short: 'v', describe: 'verbose' },
    },
    run: done,
  }),
  command({
    name: 'check',
    summary: 'check',
    positionals: [
      { name: 'config', kind: 'required', describe: 'config' },
      { name: 'files', kind: 'variadic', describe: 'files' },
    ],
    run: done,
  }),
  command({
    name: 'show',
    summary: 'show',
    positionals: [{ name: 'what', kind: 'optional', default: 'all', describe: 'what' }],
    subcommands: [
      command({
        name: 'one',
        summary: 'one',
        positionals: [{ name: 'id', kind: 'required', describe: 'id' }],
        run: done,
      }),
    ],
    run: done,
  }),
]

const parse = (...argv: string[]): CommandLine => parseCommandLine('prog', table, argv)

function ran(line: CommandLine): { name: string; args: Record<string, unknown> } {
  if (line.kind !== 'run') throw new Error(`expected a command to run, got ${JSON.stringify(line)}`)
  return { name: line.command.name, args: line.args }
}

function refused(line: CommandLine): { code: string; message: string; helpCommand: string } {
  if (line.kind !== 'refused') throw new Error(`expected a refusal, got ${line.kind}`)
  expect(line.error).toBeInstanceOf(UsageError)
  return { code: line.error.code, message: line.error.message, helpCommand: line.helpCommand }
}

describe('which command (resolve.ts)', () => {
  it('1. a first word naming a command or an alias chooses it', () => {
    expect(ran(parse('check', 'c.yaml', 'x.log')).name).toBe('check')
    expect(ran(parse('s')).name).toBe('serve')
  })

  it('2. a next word naming a subcommand chooses it; any other word stays a positional', () => {
    expect(ran(parse('show', 'one', '7')).args).toEqual({ id: '7' })
    expect(ran(parse('show', 'two')).args).toEqual({ what: 'two' })
  })

  it('3. no first word, or an option first: the default command', () => {
    expect(ran(parse()).name).toBe('serve')
    expect(ran(parse('--port', '1')).args).toMatchObject({ port: 1 })
  })

  it('4. any other first word is an unknown command', () => {
    expect(refused(parse('frobnicate', '--wat'))).toEqual({
      code: UsageErrorCodes.UNKNOWN_COMMAND,
      message: 'unknown command "frobnicate"',
      helpCommand: 'prog --help',
    })
  })
})

describe('options (read-options.ts)', () => {
  it('1. an undeclared option is refused, by the name it was given', () => {
    expect(refused(parse('serve', '--confg', 'b.yaml'))).toEqual({
      code: UsageErrorCodes.UNKNOWN_OPTION,
      message: 'unknown option --confg',
      helpCommand: 'prog serve --help',
    })
    expect(refused(parse('check', '-x', 'c', 'f')).message).toBe('unknown option -x')
  })

  it('2. a boolean is true when given, takes no value, and --no-<name> makes it false', () => {
    expect(ran(parse('--json', '-v')).args).toMatchObject({ json: true, verbose: true })
    expect(ran(parse('--no-json')).args).toMatchObject({ json: false })
    expect(refused(parse('--json=yes'))).toMatchObject({
      code: UsageErrorCodes.BAD_VALUE,
      message: '--json takes no value (got "yes")',
    })
    expect(refused(parse('--no-port')).message).toBe('unknown option --no-port')
  })

  it('3. a string or number needs a value; one that looks like an option is a forgotten value', () => {
    expect(refused(parse('--config'))).toMatchObject({
      code: UsageErrorCodes.MISSING_VALUE,
      message: '--config needs a value',
    })
    expect(refused(parse('--config', '--port', '1')).message).toBe(
      '--config needs a value (for a value that starts with -, write --config=<value>)',
    )
    expect(ran(parse('--config=-odd.yaml')).args).toMatchObject({ config: '-odd.yaml' })
    expect(ran(parse('--config', '-')).args).toMatchObject({ config: '-' })
    expect(ran(parse('--port', '-1')).args).toMatchObject({ port: -1 })
  })

  it('4. a number option takes decimal numbers only', () => {
    expect(ran(parse('--port', '4011')).args).toMatchObject({ port: 4011 })
    expect(ran(parse('--port=1.5')).args).toMatchObject({ port: 1.5 })
    for (const bad of ['abc', '0x10', '', '1e', '12px']) {
      expect(refused(parse(`--port=${bad}`)), bad).toMatchObject({
        code: UsageErrorCodes.BAD_VALUE,
        message: `--port "${bad}": expected a number`,
      })
    }
  })

  it('5. a repeatable option collects its values in order; any other may be given once', () => {
    expect(ran(parse('--tag', 'a', '--tag=b')).args).toMatchObject({ tag: ['a', 'b'] })
    expect(refused(parse('--config', 'a', '--config', 'b'))).toMatchObject({
      code: UsageErrorCodes.REPEATED_OPTION,
      message: '--config is given more than once',
    })
  })

  it('6. everything after -- is a positional', () => {
    expect(ran(parse('check', 'c.yaml', '--', '--json', '-x.log')).args).toEqual({
      config: 'c.yaml',
      files: ['--json', '-x.log'],
    })
  })

  it('7. --help wins over a refusal', () => {
    expect(parse('check', '--wat', '--help').kind).toBe('help')
    expect(refused(parse('check', '--', '--help')).message).toBe('missing argument <files...>')
  })
})

describe('arguments (bind.ts)', () => {
  it('1. absent options take their default: false for a boolean, [] for a repeatable, else undefined', () => {
    expect(ran(parse()).args).toEqual({ config: 'a.yaml', port: undefined, json: false, tag: [], verbose: false })
  })

  it('2. positionals in order: required, optional with its default, variadic with at least one', () => {
    expect(ran(parse('check', 'c.yaml', 'a.log', 'b.log')).args).toEqual({
      config: 'c.yaml',
      files: ['a.log', 'b.log'],
    })
    expect(ran(parse('show')).args).toEqual({ what: 'all' })
    expect(refused(parse('check'))).toEqual({
      code: UsageErrorCodes.MISSING_ARGUMENT,
      message: 'missing argument <config>',
      helpCommand: 'prog check --help',
    })
    expect(refused(parse('check', 'c.yaml')).message).toBe('missing argument <files...>')
    expect(refused(parse('show', 'one')).message).toBe('missing argument <id>')
  })

  it('3. a positional beyond the declared ones is refused', () => {
    expect(refused(parse('serve', 'extra'))).toMatchObject({
      code: UsageErrorCodes.UNEXPECTED_ARGUMENT,
      message: 'unexpected argument "extra"',
    })
    expect(refused(parse('show', 'a', 'b')).message).toBe('unexpected argument "b"')
  })

  it('4. the default command chosen without its name drops its name as the first positional', () => {
    expect(ran(parse('--config', 'b.yaml', 'serve')).args).toMatchObject({ config: 'b.yaml' })
    expect(ran(parse('--config', 'serve')).args).toMatchObject({ config: 'serve' })
    expect(refused(parse('serve', 'serve')).message).toBe('unexpected argument "serve"')
  })
})

describe('what to do (parse.ts)', () => {
  it('2. --help or -h: the named command help, or the list of commands', () => {
    const own = parse('show', 'one', '-h')
    expect(own.kind === 'help' && own.text).toContain('Usage: prog show one <id> [options]')
    const list = parse('--help')
    expect(list.kind === 'help' && list.text).toContain('Usage: prog <command> [options]')
    const implicit = parse('--port', '1', '-h')
    expect(implicit.kind === 'help' && implicit.text).toContain('Commands:')
  })

  it('3. --version', () => {
    expect(parse('--version')).toEqual({ kind: 'version' })
  })

  it('4. a refusal names the help of the command that was named, else the top help', () => {
    expect(refused(parse('--port', 'x')).helpCommand).toBe('prog --help')
    expect(refused(parse('show', 'one', '--port', '1')).helpCommand).toBe('prog show one --help')
  })
})
