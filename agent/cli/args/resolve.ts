// Which command a command line names, before its options are read (their types depend on it):
// 1. a first word that is a command's name or alias chooses it (`explicit`);
// 2. then, while the chosen command has subcommands, a next word naming one of them chooses it;
// 3. no first word, or one that starts with `-` (an option): the default command, not explicit;
// 4. any other first word is an unknown command.

import { UsageError, UsageErrorCodes } from './errors'
import type { AnyCommand } from './spec'

export interface Resolved {
  readonly command: AnyCommand
  /** The words that named it: `['silence', 'list']`; empty for the default command. */
  readonly path: readonly string[]
  /** The arguments after those words. */
  readonly rest: readonly string[]
}

const names = (command: AnyCommand): readonly string[] => [command.name, ...(command.aliases ?? [])]

const named = (commands: readonly AnyCommand[], word: string | undefined): AnyCommand | undefined =>
  word === undefined ? undefined : commands.find((command) => names(command).includes(word))

export function resolveCommand(table: readonly AnyCommand[], argv: readonly string[]): Resolved | UsageError {
  const first = argv[0]
  const chosen = named(table, first)
  if (chosen === undefined) {
    const fallback = table.find((command) => command.isDefault === true)
    if (fallback !== undefined && (first === undefined || first.startsWith('-'))) {
      return { command: fallback, path: [], rest: argv }
    }
    return new UsageError(UsageErrorCodes.UNKNOWN_COMMAND, `unknown command "${first ?? ''}"`)
  }
  let command = chosen
  const path = [chosen.name]
  let rest = argv.slice(1)
  for (let sub = named(command.subcommands ?? [], rest[0]); sub !== undefined;) {
    command = sub
    path.push(sub.name)
    rest = rest.slice(1)
    sub = named(command.subcommands ?? [], rest[0])
  }
  return { command, path, rest }
}
