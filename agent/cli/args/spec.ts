// What a command declares about its command line, and the typed values the parser hands its `run`.
// The declaration is data: the parser (parse.ts) reads it, the help (help.ts) prints it, and the
// types below derive each command's argument object from it, so a new option is one line.

import type { CliIo } from '../io'

export type OptionType = 'string' | 'number' | 'boolean'

export interface OptionSpec {
  readonly type: OptionType
  readonly describe: string
  /** Shown in the help and used when the option is absent (a boolean without one defaults to false). */
  readonly default?: string | number | boolean
  /** Given any number of times; the values come as a list in command-line order. */
  readonly repeatable?: boolean
  /** A one-letter form (`-x`). */
  readonly short?: string
}

export interface PositionalSpec {
  readonly name: string
  readonly describe: string
  /** `required`: must be given; `optional`: may be absent (then `default`); `variadic`: one or more, last. */
  readonly kind: 'required' | 'optional' | 'variadic'
  readonly default?: string
  /** A variadic one that may be absent (then []), shown `[name...]`: another option stands in for it. */
  readonly allowNone?: boolean
}

export type Options = Readonly<Record<string, OptionSpec>>

/** One example line of the help: the arguments after `logx-agent`, and what they do. */
export interface Example {
  readonly line: string
  readonly says: string
}

/** The value one option arrives as. */
type OptionValue<O extends OptionSpec> = O['repeatable'] extends true
  ? O['type'] extends 'number'
    ? number[]
    : string[]
  : O['type'] extends 'boolean'
    ? boolean
    : O['default'] extends string | number
      ? O['type'] extends 'number'
        ? number
        : string
      : (O['type'] extends 'number' ? number : string) | undefined

/** The value one positional arrives as. */
type PositionalValue<P extends PositionalSpec> = P['kind'] extends 'variadic'
  ? string[]
  : P['kind'] extends 'required'
    ? string
    : P['default'] extends string
      ? string
      : string | undefined

type PositionalValues<P extends readonly PositionalSpec[]> = {
  [K in P[number] as K['name']]: PositionalValue<K>
}

/** What a command's `run` gets: each option and positional under its declared name. */
export type ArgsOf<O extends Options, P extends readonly PositionalSpec[]> = {
  -readonly [K in keyof O]: OptionValue<O[K]>
} & PositionalValues<P>

/** One command (or subcommand) as declared in the table. */
export interface CommandSpec<O extends Options = Options, P extends readonly PositionalSpec[] = PositionalSpec[]> {
  readonly name: string
  readonly aliases?: readonly string[]
  /** The command a command line without one runs (`run`). */
  readonly isDefault?: boolean
  readonly summary: string
  readonly positionals?: P
  readonly options?: O
  readonly examples?: readonly Example[]
  readonly subcommands?: readonly AnyCommand[]
  readonly run: (args: ArgsOf<O, P>, io: CliIo) => Promise<number>
}

/** A command whose argument types are no longer needed: what tables, the parser and the help hold. */
export interface AnyCommand {
  readonly name: string
  readonly aliases?: readonly string[]
  readonly isDefault?: boolean
  readonly summary: string
  readonly positionals?: readonly PositionalSpec[]
  readonly options?: Options
  readonly examples?: readonly Example[]
  readonly subcommands?: readonly AnyCommand[]
  readonly run: (args: Record<string, unknown>, io: CliIo) => Promise<number>
}

/** Declares a command: its `run` is typed from its options and positionals, the table keeps it untyped. */
export function command<const O extends Options = Record<never, never>, const P extends readonly PositionalSpec[] = []>(
  spec: CommandSpec<O, P>,
): AnyCommand {
  return spec as unknown as AnyCommand
}
