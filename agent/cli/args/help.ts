// The help the parser prints for `--help`/`-h`: the list of commands, or one command's usage line,
// arguments, options with their defaults, subcommands and examples. Every line fits in WIDTH
// columns: a description wraps under itself, beside a left column of at most LEFT_MAX columns.

import { positionalLabel } from './bind'
import type { AnyCommand, OptionSpec } from './spec'

export const WIDTH = 100
const LEFT_MAX = 34
const INDENT = '  '

/** Splits `text` into lines of at most `width` columns, at spaces (a longer word gets a line of its own). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = word
    else if (line.length + 1 + word.length <= width) line += ` ${word}`
    else {
      lines.push(line)
      line = word
    }
  }
  if (line !== '') lines.push(line)
  return lines
}

/** Rows of `left  right`: the right column wraps under itself, or starts below a left that is too long. */
function columns(rows: readonly (readonly [string, string])[]): string[] {
  const longest = Math.max(0, ...rows.map(([left]) => left.length).filter((n) => n <= LEFT_MAX))
  const at = INDENT.length + longest + 2
  const pad = ' '.repeat(at)
  const out: string[] = []
  for (const [left, right] of rows) {
    const text = wrap(right, WIDTH - at)
    const head = `${INDENT}${left}`
    if (head.length + 2 > at) out.push(head, ...text.map((t) => pad + t))
    else out.push(head.padEnd(at) + (text[0] ?? ''), ...text.slice(1).map((t) => pad + t))
  }
  return out.map((line) => line.trimEnd())
}

function optionLeft(name: string, spec: OptionSpec): string {
  const flag = spec.short === undefined ? `--${name}` : `-${spec.short}, --${name}`
  return spec.type === 'boolean' ? flag : `${flag} <${spec.type}>`
}

function optionRight(spec: OptionSpec): string {
  const notes = [spec.repeatable === true ? '[repeatable]' : '']
  if (spec.default !== undefined) notes.push(`[default: ${String(spec.default)}]`)
  return [spec.describe, ...notes].filter((n) => n !== '').join(' ')
}

function usageLine(program: string, path: readonly string[], command: AnyCommand): string {
  const words = [program, ...path, ...(command.positionals ?? []).map(positionalLabel)]
  if ((command.subcommands ?? []).length > 0) words.splice(1 + path.length, 0, '[<subcommand>]')
  return wrap(`Usage: ${[...words, '[options]'].join(' ')}`, WIDTH).join('\n       ')
}

/** `logx-agent <path> --help`. */
export function commandHelp(program: string, path: readonly string[], command: AnyCommand): string {
  const sections = [usageLine(program, path, command), wrap(command.summary, WIDTH).join('\n')]
  const positionals = command.positionals ?? []
  if (positionals.length > 0) {
    const rows = positionals.map(
      (p) => [p.name, p.default === undefined ? p.describe : `${p.describe} [default: ${p.default}]`] as const,
    )
    sections.push(['Arguments:', ...columns(rows)].join('\n'))
  }
  const options = Object.entries(command.options ?? {}).map(
    ([name, spec]) => [optionLeft(name, spec), optionRight(spec)] as const,
  )
  options.push(['-h, --help', 'show this help'])
  sections.push(['Options:', ...columns(options)].join('\n'))
  const subcommands = command.subcommands ?? []
  if (subcommands.length > 0) {
    const rows = subcommands.map(
      (sub) => [[...path, sub.name, ...(sub.positionals ?? []).map(positionalLabel)].join(' '), sub.summary] as const,
    )
    sections.push(['Subcommands:', ...columns(rows)].join('\n'))
  }
  const examples = command.examples ?? []
  if (examples.length > 0) {
    const lines = examples.flatMap((e) => [
      ...wrap(`${program} ${e.line}`, WIDTH - INDENT.length).map((t) => INDENT + t),
      ...wrap(e.says, WIDTH - 2 * INDENT.length).map((t) => INDENT + INDENT + t),
    ])
    sections.push(['Examples:', ...lines].join('\n'))
  }
  return `${sections.join('\n\n')}\n`
}

/** `logx-agent --help`: every command with its summary. */
export function tableHelp(program: string, table: readonly AnyCommand[]): string {
  const row = (path: readonly string[], command: AnyCommand): readonly [string, string] => {
    const words = [...path, ...(command.positionals ?? []).map(positionalLabel)].join(' ')
    const note = command.isDefault === true ? ' (the default command)' : ''
    return [words, command.summary + note]
  }
  const rows = table.flatMap((command) => [
    row([command.name], command),
    ...(command.subcommands ?? []).map((sub) => row([command.name, sub.name], sub)),
  ])
  const global = [
    ['-h, --help', 'show this help; after a command, its usage'],
    ['--version', "print logx-agent's version"],
  ] as const
  return (
    [
      `Usage: ${program} <command> [options]`,
      ['Commands:', ...columns(rows)].join('\n'),
      ['Options:', ...columns(global)].join('\n'),
      `Run ${program} <command> --help for a command's arguments, options and examples.`,
    ].join('\n\n') + '\n'
  )
}
