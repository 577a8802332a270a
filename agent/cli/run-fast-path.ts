// `logx-agent run`'s command line, parsed by node:util's parseArgs from the same option table that
// yargs shows in `run --help` (RUN_OPTIONS): the long-running process never loads yargs, which keeps
// about 16 MB of RSS for the rest of its life (the agent's peak RSS goal is 64 MB). Anything parseArgs
// refuses, and anything unusual about a `run` command line (a repeated option, an empty value, `--`,
// a port that is not plain digits, a positional other than one `run`), returns undefined and goes to
// yargs, which gives the usual messages.
import { parseArgs } from 'node:util'
import type { RunArgs } from './run-command'

export const DEFAULT_CONFIG = 'config/agent.yaml'

/** `run`'s options, once: yargs describes them, parseArgs reads them. */
export const RUN_OPTIONS = {
  config: { type: 'string', default: DEFAULT_CONFIG, describe: 'agent config file (YAML)' },
  port: {
    type: 'number',
    describe: 'port of the embedded sandbox (overrides messaging.sandbox.listen; 0 picks a free one)',
  },
  host: { type: 'string', describe: 'interface of the embedded sandbox (overrides messaging.sandbox.listen)' },
  tap: {
    type: 'string',
    describe: 'pass-everything mode: append every line read to this file as NDJSON (- for stdout)',
  },
} as const

const PARSE_OPTIONS = {
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  tap: { type: 'string' },
} as const

/** What parseArgs makes of `argv`, or undefined for what it refuses (an unknown or ambiguous option). */
function parsed(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: PARSE_OPTIONS, allowPositionals: true, strict: true, tokens: true })
  } catch {
    return undefined
  }
}

export function parseRunFastPath(argv: readonly string[]): RunArgs | undefined {
  const result = parsed(argv)
  if (result === undefined) return undefined
  const seen = new Set<string>()
  for (const token of result.tokens) {
    if (token.kind === 'option-terminator') return undefined
    if (token.kind !== 'option') continue
    if (seen.has(token.name) || token.value === undefined || token.value === '') return undefined
    seen.add(token.name)
  }
  if (result.positionals.length > 1 || result.positionals.some((p) => p !== 'run')) return undefined
  const { config, port, host, tap } = result.values
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return undefined
  return { config: config ?? DEFAULT_CONFIG, port: port === undefined ? undefined : Number(port), host, tap }
}
