// A command line against a table of commands: what to do with it.
// 1. the command is resolved from the first words (resolve.ts), then its options read (read-options.ts);
// 2. `--help` or `-h`: the chosen command's help, or the list of commands when none was named;
// 3. `--version`: the version;
// 4. otherwise the command with its argument object (bind.ts), or the first refusal, with the help
//    command that would have answered (`logx-agent silence --help`, or `logx-agent --help` when no
//    command was named or the command is unknown).

import { bindArgs } from './bind'
import { UsageError } from './errors'
import { commandHelp, tableHelp } from './help'
import { readOptions } from './read-options'
import { resolveCommand } from './resolve'
import type { AnyCommand } from './spec'

export type CommandLine =
  | { readonly kind: 'run'; readonly command: AnyCommand; readonly args: Record<string, unknown> }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version' }
  | { readonly kind: 'refused'; readonly error: UsageError; readonly helpCommand: string }

export function parseCommandLine(program: string, table: readonly AnyCommand[], argv: readonly string[]): CommandLine {
  const resolved = resolveCommand(table, argv)
  const topHelp = `${program} --help`
  if (resolved instanceof UsageError) return { kind: 'refused', error: resolved, helpCommand: topHelp }
  const { command, path, rest } = resolved
  const explicit = path.length > 0
  const helpCommand = explicit ? `${program} ${path.join(' ')} --help` : topHelp
  const read = readOptions(command.options ?? {}, rest)
  if (read instanceof UsageError) return { kind: 'refused', error: read, helpCommand }
  if (read.help)
    return { kind: 'help', text: explicit ? commandHelp(program, path, command) : tableHelp(program, table) }
  if (read.version) return { kind: 'version' }
  const args = bindArgs(command, read, explicit)
  if (args instanceof UsageError) return { kind: 'refused', error: args, helpCommand }
  return { kind: 'run', command, args }
}
