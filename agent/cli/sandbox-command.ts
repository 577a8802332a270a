// `logx-agent sandbox`: start the sandbox, print where everything is, stay up until asked to stop.

import { SandboxError } from '../sandbox/errors'
import { startSandbox } from '../sandbox/server'
import type { Sandbox, SandboxOptions } from '../sandbox/types'
import { untilAborted, type CliIo } from './io'

export interface SandboxArgs {
  port: number
  host: string
  /** --allow-remote: listen on a --host that is not a loopback address. */
  allowRemote?: boolean
  dataDir?: string
  apiKey?: string
  activityToken?: string
  leadAccount?: string
  retention?: number
  /** Fault rules as JSON text, one per --fault. */
  faults: readonly string[]
}

export function describeSandbox(sandbox: Sandbox, keyGiven: boolean, tokenGiven: boolean): string {
  const { info } = sandbox
  // A key the user chose is a secret and is not echoed; the built-in defaults are not secrets.
  const key = keyGiven ? '(as given by --api-key)' : sandbox.apiKey
  const token = tokenGiven ? '(as given by --activity-token)' : sandbox.activityToken
  // The address as given: a wildcard is every interface, not the 127.0.0.1 its URLs below name.
  const where = info.remote ? `${info.listening} (reachable from other machines)` : info.listening
  return [
    `logx sandbox ${info.version} listening on ${where}`,
    `  base URL:             ${info.baseUrl}`,
    `  lead webhook URL:     ${info.leadWebhookUrl}`,
    `  activity webhook URL: ${info.activityWebhookUrl}`,
    `  inbox URL:            ${info.inboxUrl}`,
    `  control API:          ${info.controlUrl} (info: ${info.controlUrl}info)`,
    `  apikey:               ${key}`,
    `  X-O-TOKEN:            ${token}`,
    `  data:                 ${info.dataDir ?? '(memory only)'}`,
    '',
  ].join('\n')
}

/** Starts a sandbox from CLI arguments; returns it, or an exit code and a message on bad input. */
export async function startFromArgs(args: SandboxArgs, io: CliIo): Promise<Sandbox | number> {
  const faults: unknown[] = []
  for (const [i, text] of args.faults.entries()) {
    try {
      faults.push(JSON.parse(text) as unknown)
    } catch {
      io.stderr.write(`logx-agent: --fault #${i + 1} is not valid JSON\n`)
      return 2
    }
  }
  const options: SandboxOptions = {
    port: args.port,
    host: args.host,
    faults,
    allowRemote: args.allowRemote === true,
    onWarning: (message) => io.stderr.write(`logx-agent: ${message}\n`),
  }
  if (args.dataDir !== undefined) options.dataDir = args.dataDir
  if (args.apiKey !== undefined) options.apiKey = args.apiKey
  if (args.activityToken !== undefined) options.activityToken = args.activityToken
  if (args.leadAccount !== undefined) options.leadAccount = args.leadAccount
  if (args.retention !== undefined) options.retention = args.retention
  try {
    return await startSandbox(options)
  } catch (err) {
    if (err instanceof SandboxError) {
      io.stderr.write(`logx-agent: ${err.message}\n`)
      return err.code === 'LOGX_SANDBOX_ERR_LISTEN' ? 1 : 2
    }
    throw err
  }
}

export async function sandboxCommand(args: SandboxArgs, io: CliIo): Promise<number> {
  const started = await startFromArgs(args, io)
  if (typeof started === 'number') return started
  io.stdout.write(describeSandbox(started, args.apiKey !== undefined, args.activityToken !== undefined))
  await untilAborted(io.signal)
  await started.close()
  io.stdout.write('logx sandbox stopped\n')
  return 0
}
