// `logx-agent console [--config F] [--url U] [--token-file F] [--json]`: a fresh one-time login URL
// for the running agent's web console (`<url>/#login=<code>`). The agent makes the code (POST
// /api/login-codes, with the console token the CLI finds as every console command does); the page
// opened with it trades the code for a session kept in the tab's memory. The code works once, within
// 10 minutes. In the fragment (after #) it never reaches a server's log or a Referer header.
import { loginUrl } from '../daemon/console-access'
import { locateAgent, type ConsoleArgs } from './agent-locator'
import { createConsoleClient } from './console-client'
import type { CliIo } from './io'

export async function consoleCommand(
  args: ConsoleArgs,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const located = await locateAgent(args, env)
  if (!located.ok) {
    io.stderr.write(`logx-agent: ${located.message}\n`)
    return 1
  }
  const { target } = located
  const answer = await createConsoleClient(target).post<{ code?: unknown; expiresAt?: unknown }>(
    '/api/login-codes',
    undefined,
  )
  if (!answer.ok) {
    io.stderr.write(`logx-agent: ${answer.message}\n`)
    return 1
  }
  const { code, expiresAt } = answer.body
  if (typeof code !== 'string' || typeof expiresAt !== 'number') {
    io.stderr.write(`logx-agent: the agent at ${target.url} answered without a login code\n`)
    return 1
  }
  const url = loginUrl(target.url.replace(/\/+$/, ''), code)
  if (args.json) io.stdout.write(`${JSON.stringify({ url, expiresAt })}\n`)
  else io.stdout.write(`${url}\n(opens the console once, until ${new Date(expiresAt).toLocaleTimeString()})\n`)
  return 0
}
