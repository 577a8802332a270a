// `logx-agent run` without yargs: the command pm2, npm start and the benchmarks use is parsed here
// with node:util's parseArgs, so the long-running process never loads yargs (about 14 MB of RSS for
// an argument parser used once). Anything else, or anything unusual about a `run` command line
// (help, an unknown or repeated option, a port that is not plain digits), returns undefined and
// goes to yargs, which gives the usual messages.
import { parseArgs } from 'node:util'
import type { RunArgs } from './run-command'

const DEFAULT_CONFIG = 'config/agent.yaml'

export function parseRunFastPath(argv: readonly string[]): RunArgs | undefined {
  let parsed: ReturnType<typeof parseArgs<{ options: { config: { type: 'string' }; port: { type: 'string' }; host: { type: 'string' }; tap: { type: 'string' } }; allowPositionals: true; tokens: true; strict: true }>>
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, tap: { type: 'string' } },
      allowPositionals: true,
      tokens: true,
      strict: true,
    })
  } catch {
    return undefined
  }
  const { positionals, values, tokens } = parsed
  if (positionals.length > 1 || (positionals.length === 1 && positionals[0] !== 'run')) return undefined
  const seen = new Set<string>()
  for (const token of tokens) {
    if (token.kind === 'option-terminator') return undefined
    if (token.kind !== 'option') continue
    if (seen.has(token.name) || token.value === undefined || token.value === '') return undefined
    seen.add(token.name)
  }
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port)) return undefined
  return {
    config: values.config ?? DEFAULT_CONFIG,
    port: values.port === undefined ? undefined : Number(values.port),
    host: values.host,
    tap: values.tap,
  }
}
