// `logx-agent run` without yargs: the command pm2, npm start and the benchmarks use is parsed here,
// so the long-running process never loads yargs (about 14 MB of RSS for an argument parser used
// once), nor node:util's parseArgs (0.2 MB). Anything else, or anything unusual about a `run` command
// line (help, a short, unknown or repeated option, a missing value or one that looks like an option,
// a port that is not plain digits), returns undefined and goes to yargs, which gives the usual messages.
import type { RunArgs } from './run-command'

const DEFAULT_CONFIG = 'config/agent.yaml'
const OPTIONS = new Set(['config', 'port', 'host', 'tap'])

export function parseRunFastPath(argv: readonly string[]): RunArgs | undefined {
  const values = new Map<string, string>()
  let commands = 0
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('-')) {
      if (arg !== 'run' || ++commands > 1) return undefined
      continue
    }
    if (!arg.startsWith('--') || arg === '--') return undefined
    const equals = arg.indexOf('=')
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals)
    const value = equals === -1 ? argv[++i] : arg.slice(equals + 1)
    if (!OPTIONS.has(name) || values.has(name) || value === undefined || value === '') return undefined
    // `--config --port 0`: the value was forgotten, not `--port`. A lone `-` is a value (stdout).
    if (equals === -1 && value.length > 1 && value.startsWith('-')) return undefined
    values.set(name, value)
  }
  const port = values.get('port')
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return undefined
  return {
    config: values.get('config') ?? DEFAULT_CONFIG,
    port: port === undefined ? undefined : Number(port),
    host: values.get('host'),
    tap: values.get('tap'),
  }
}
