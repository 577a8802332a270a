// init's prompts on a terminal, through node:readline/promises; no terminal, no prompts (init then
// needs --yes). The entry the command table calls.
import { createInterface } from 'node:readline/promises'
import type { CliIo } from '../io'
import { defaultInitEnvironment, initCommand, type InitArgs } from './init-command'

export async function initFromTerminal(args: InitArgs, io: CliIo): Promise<number> {
  if (args.yes || process.stdin.isTTY !== true) return initCommand(args, io, defaultInitEnvironment(undefined))
  const terminal = createInterface({ input: process.stdin, output: process.stdout })
  // Ctrl-C at a prompt ends init without a file, as the stop signal does elsewhere.
  const onAbort = (): void => terminal.close()
  io.signal.addEventListener('abort', onAbort, { once: true })
  try {
    const ask = async (question: string): Promise<string> => (await terminal.question(question)).trim()
    return await initCommand(args, io, defaultInitEnvironment(ask))
  } finally {
    io.signal.removeEventListener('abort', onAbort)
    terminal.close()
  }
}
