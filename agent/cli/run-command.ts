// `logx-agent run` (the default command). Until tailing lands, running the agent means running the
// embedded sandbox, so `npm start` gives a working inbox with no config at all.

import { describeSandbox, startFromArgs } from './sandbox-command'
import { untilAborted, type CliIo } from './io'

export interface RunArgs {
  port: number
  host: string
  /** Accepted for forward compatibility; not read yet. */
  config: string | undefined
}

export async function runCommand(args: RunArgs, io: CliIo): Promise<number> {
  const started = await startFromArgs({ port: args.port, host: args.host, faults: [] }, io)
  if (typeof started === 'number') return started
  io.stdout.write('logx-agent running with the embedded messaging sandbox (no real API configured)\n')
  if (args.config !== undefined) io.stdout.write(`  config ${args.config}: not read yet (log tailing arrives in a later release)\n`)
  io.stdout.write(describeSandbox(started, false, false))
  io.stdout.write(`Open the inbox at ${started.info.inboxUrl} ; stop with Ctrl-C.\n`)
  io.ready?.()
  await untilAborted(io.signal)
  await started.close()
  io.stdout.write('logx-agent stopped\n')
  return 0
}
