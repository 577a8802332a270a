// A command's options, read with node:util's parseArgs (its tokens, not its strict mode, so every
// refusal says it in our words and names the option):
// 1. an option the command does not declare is refused (`--help`/`-h` and `--version` are everyone's);
// 2. a boolean takes no value (`--json=1` is refused); `--no-<name>` sets a boolean to false;
// 3. a string or number needs a value; a separate value that starts with `-` is taken as a
//    forgotten value and refused (write `--opt=-x`), except a negative number for a number option;
// 4. a number option's value must be a decimal number;
// 5. an option that is not repeatable may be given once; a repeatable one collects its values in order;
// 6. words, and everything after `--`, are positionals, in order;
// 7. `--help` anywhere before `--` wins over any refusal.

import { parseArgs } from 'node:util'
import { UsageError, UsageErrorCodes } from './errors'
import type { Options, OptionSpec } from './spec'

export interface ReadOptions {
  readonly values: Map<string, string | number | boolean | (string | number)[]>
  readonly positionals: string[]
  help: boolean
  version: boolean
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i

type ParseConfig = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>

function parseConfig(options: Options): ParseConfig {
  const config: ParseConfig = {
    help: { type: 'boolean', short: 'h', multiple: true },
    version: { type: 'boolean', multiple: true },
  }
  for (const [name, spec] of Object.entries(options)) {
    config[name] = { type: spec.type === 'boolean' ? 'boolean' : 'string', multiple: true }
    if (spec.short !== undefined) config[name].short = spec.short
  }
  return config
}

/** The value of one occurrence, or why it is refused (rules 2 to 4). */
function valueOf(
  raw: string,
  spec: OptionSpec,
  value: string | undefined,
  inline: boolean | undefined,
): string | number | UsageError {
  if (value === undefined) return new UsageError(UsageErrorCodes.MISSING_VALUE, `${raw} needs a value`)
  if (spec.type === 'number') {
    if (NUMBER.test(value)) return Number(value)
    if (value.startsWith('-') && inline !== true) return forgotten(raw)
    return new UsageError(UsageErrorCodes.BAD_VALUE, `${raw} "${value}": expected a number`)
  }
  if (value.length > 1 && value.startsWith('-') && inline !== true) return forgotten(raw)
  return value
}

const forgotten = (raw: string): UsageError =>
  new UsageError(
    UsageErrorCodes.MISSING_VALUE,
    `${raw} needs a value (for a value that starts with -, write ${raw}=<value>)`,
  )

/** A boolean occurrence (rule 2): true, false for `--no-<name>`, or refused when given a value. */
function flagOf(raw: string, negated: boolean, value: string | undefined): boolean | UsageError {
  if (value !== undefined) return new UsageError(UsageErrorCodes.BAD_VALUE, `${raw} takes no value (got "${value}")`)
  return !negated
}

/** Which declared option a token names: itself, or a boolean through `--no-<name>`. */
function declared(options: Options, name: string): { name: string; spec: OptionSpec; negated: boolean } | undefined {
  const spec = options[name]
  if (spec !== undefined) return { name, spec, negated: false }
  const positive = name.startsWith('no-') ? name.slice(3) : undefined
  const negatable = positive === undefined ? undefined : options[positive]
  if (positive !== undefined && negatable?.type === 'boolean') return { name: positive, spec: negatable, negated: true }
  return undefined
}

export function readOptions(options: Options, args: readonly string[]): ReadOptions | UsageError {
  const { tokens } = parseArgs({
    args: [...args],
    options: parseConfig(options),
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  const read: ReadOptions = { values: new Map(), positionals: [], help: false, version: false }
  let refused: UsageError | undefined
  for (const token of tokens) {
    if (token.kind === 'positional') read.positionals.push(token.value)
    if (token.kind !== 'option') continue
    if (token.name === 'help' || token.name === 'version') {
      read[token.name === 'help' ? 'help' : 'version'] = true
    } else {
      refused ??= take(read, options, token)
    }
  }
  // Rule 7: --help wins over a refusal, so a user can ask what the options are while getting them wrong.
  return refused === undefined || read.help ? read : refused
}

type OptionToken = { name: string; rawName: string; value?: string | undefined; inlineValue?: boolean | undefined }

/** Takes one option occurrence into `read.values` (rules 1 to 5), or says why not. */
function take(read: ReadOptions, options: Options, token: OptionToken): UsageError | undefined {
  const option = declared(options, token.name)
  if (option === undefined) return new UsageError(UsageErrorCodes.UNKNOWN_OPTION, `unknown option ${token.rawName}`)
  const value =
    option.spec.type === 'boolean'
      ? flagOf(token.rawName, option.negated, token.value)
      : valueOf(token.rawName, option.spec, token.value, token.inlineValue)
  if (value instanceof UsageError) return value
  const before = read.values.get(option.name)
  if (option.spec.repeatable === true) {
    read.values.set(option.name, [...(Array.isArray(before) ? before : []), value as string | number])
  } else if (before !== undefined) {
    return new UsageError(UsageErrorCodes.REPEATED_OPTION, `--${option.name} is given more than once`)
  } else {
    read.values.set(option.name, value)
  }
  return undefined
}
