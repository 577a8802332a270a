// The argument object a command's `run` gets, from what read-options.ts read:
// 1. an absent option takes its declared default; a boolean without one is false, a repeatable
//    option without one is an empty list, any other is undefined;
// 2. positionals fill the declared ones in order: a required one must be there, an optional one
//    takes its default when absent, a variadic one (the last) takes the rest and needs at least one
//    unless it allows none;
// 3. a positional beyond the declared ones is refused;
// 4. the default command, chosen without being named, drops its own name when it is the first
//    positional (`logx-agent --config a.yaml run`), as the command word it is.

import { UsageError, UsageErrorCodes } from './errors'
import type { ReadOptions } from './read-options'
import type { AnyCommand, Options, PositionalSpec } from './spec'

function withDefaults(options: Options, values: ReadOptions['values']): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(options)) {
    const given = values.get(name)
    if (given !== undefined) args[name] = given
    else if (spec.default !== undefined) args[name] = spec.repeatable === true ? [spec.default] : spec.default
    else if (spec.repeatable === true) args[name] = []
    else args[name] = spec.type === 'boolean' ? false : undefined
  }
  return args
}

/** `<name>`, `[name]` or `<name...>`, as the usage line and the messages show a positional. */
export function positionalLabel(positional: PositionalSpec): string {
  if (positional.kind === 'variadic')
    return positional.allowNone === true ? `[${positional.name}...]` : `<${positional.name}...>`
  return positional.kind === 'required' ? `<${positional.name}>` : `[${positional.name}]`
}

function bindPositionals(
  declared: readonly PositionalSpec[],
  given: readonly string[],
  args: Record<string, unknown>,
): UsageError | undefined {
  let next = 0
  for (const positional of declared) {
    const missing = next >= given.length
    if (missing && positional.kind !== 'optional' && positional.allowNone !== true) {
      return new UsageError(UsageErrorCodes.MISSING_ARGUMENT, `missing argument ${positionalLabel(positional)}`)
    }
    if (positional.kind === 'variadic') {
      args[positional.name] = given.slice(next)
      next = given.length
    } else {
      args[positional.name] = missing ? positional.default : given[next]
      next += 1
    }
  }
  const extra = given[next]
  if (extra !== undefined) return new UsageError(UsageErrorCodes.UNEXPECTED_ARGUMENT, `unexpected argument "${extra}"`)
  return undefined
}

export function bindArgs(
  command: AnyCommand,
  read: ReadOptions,
  explicit: boolean,
): Record<string, unknown> | UsageError {
  const args = withDefaults(command.options ?? {}, read.values)
  const positionals = !explicit && read.positionals[0] === command.name ? read.positionals.slice(1) : read.positionals
  const refused = bindPositionals(command.positionals ?? [], positionals, args)
  return refused ?? args
}
