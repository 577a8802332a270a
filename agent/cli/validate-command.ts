// `logx-agent validate <config>`: every problem at once, one per line, as file:line:col path: message.
// Exit 0 when the config is valid, 1 when it is not, 2 for a bad command line or no file at all (the
// message says how to make one).
import { problemLine } from './problem-line'
import { readAgentConfig, type LoadConfigOptions } from '../config/load/load-config'
import type { AgentConfig } from '../config/types'
import { showApiUrl } from '../config/values/api-url'
import type { CliIo } from './io'
import { missingConfigMessage } from './init/missing-config'

export interface ValidateArgs {
  config: string
}

function summary(config: AgentConfig): string {
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`
  const api =
    config.messaging.mode === 'sandbox' ? 'embedded sandbox' : showApiUrl(config.messaging.baseUrl, config.secrets)
  const sizes = [
    count(config.sources.length, 'source'),
    count(config.channels.length, 'channel'),
    count(config.rules.length, 'rule'),
  ]
  return `${sizes.join(', ')}; messaging: ${api}`
}

export async function validateCommand(args: ValidateArgs, io: CliIo, options: LoadConfigOptions = {}): Promise<number> {
  const missing = await missingConfigMessage(args.config, 'name another: logx-agent validate FILE')
  if (missing !== undefined) {
    io.stderr.write(missing)
    return 2
  }
  const result = await readAgentConfig(args.config, options)
  if (result.ok) {
    io.stdout.write(`${args.config}: valid (${summary(result.config)})\n`)
    return 0
  }
  for (const problem of result.problems) io.stderr.write(`${problemLine(problem)}\n`)
  const n = result.problems.length
  io.stderr.write(`${args.config}: ${n} problem${n === 1 ? '' : 's'}\n`)
  return 1
}
