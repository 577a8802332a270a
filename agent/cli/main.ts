// `logx-agent` entry: `run` (default), `validate`, `test-rule` and `sandbox`. yargs 18 ships as ESM only, so it is loaded
// with a dynamic import(), which works from this CommonJS build on every supported Node.

import type { Argv } from 'yargs'
import { runCommand } from './run-command'
import { parseRunFastPath } from './run-fast-path'
import type { SandboxArgs } from './sandbox-command'
import type { CliIo } from './io'

// The one-shot commands are loaded when chosen: the long-running `run` never holds the sandbox,
// the dry run or the validator in memory.
const commands = {
  sandbox: () => import('./sandbox-command.js'),
  testRule: () => import('./test-rule-command.js'),
  validate: () => import('./validate-command.js'),
}

export type { CliIo } from './io'

/** Parses argv and runs the command; resolves with the exit code. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // The long-running command skips yargs (and its memory); every other command line goes through it.
  const run = parseRunFastPath(argv)
  if (run !== undefined) return runCommand(run, io)
  const { default: yargs } = await import('yargs')
  let exitCode = 0
  let failure: string | undefined
  const cli: Argv = yargs([...argv])
    .scriptName('logx-agent')
    .usage('$0 <command> [options]')
    .command(
      ['run', '$0'],
      'run the agent: tail the sources of the config, alert by its rules (embedded sandbox unless a real API is configured)',
      (y) =>
        y
          .option('config', { type: 'string', default: 'config/agent.yaml', describe: 'agent config file (YAML)' })
          .option('port', { type: 'number', describe: 'port of the embedded sandbox (overrides messaging.sandbox.listen; 0 picks a free one)' })
          .option('host', { type: 'string', describe: 'interface of the embedded sandbox (overrides messaging.sandbox.listen)' })
          .option('tap', { type: 'string', describe: 'pass-everything mode: append every line read to this file as NDJSON (- for stdout)' })
          .example('$0 run --config config/agent.yaml', 'what npm start runs'),
      async (args) => {
        // With exitProcess(false) yargs still calls the handler after a strict-mode failure.
        if (failure !== undefined) return
        exitCode = await runCommand({ config: args.config, port: args.port, host: args.host, tap: args.tap }, io)
      },
    )
    .command(
      'validate <config>',
      'check an agent config file and print every problem as file:line:col path: message (exit 0 valid, 1 invalid)',
      (y) =>
        y
          .positional('config', { type: 'string', demandOption: true, describe: 'agent config file (YAML)' })
          .example('$0 validate config/agent.yaml', 'check the shipped config'),
      async (args) => {
        if (failure !== undefined) return
        exitCode = await (await commands.validate()).validateCommand({ config: args.config }, io)
      },
    )
    .command(
      'test-rule <config> <logfile...>',
      'dry run: which lines of existing files match which rule, which incidents form, and the exact messages each channel would get; nothing is sent',
      (y) =>
        y
          .positional('config', { type: 'string', demandOption: true, describe: 'agent config file (YAML)' })
          .positional('logfile', { type: 'string', array: true, demandOption: true, describe: 'log files, read from their first line' })
          .option('rule', { type: 'string', describe: 'only this rule' })
          .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' })
          .example('$0 test-rule config/agent.yaml logs/app.log --rule errors', 'what the errors rule would send for app.log'),
      async (args) => {
        if (failure !== undefined) return
        exitCode = await (await commands.testRule()).testRuleCommand({ config: args.config, files: args.logfile, rule: args.rule, json: args.json }, io)
      },
    )
    .command(
      'sandbox',
      'start the local messaging API sandbox with its web inbox',
      (y) =>
        y
          .option('port', { type: 'number', default: 4010, describe: 'port to listen on (0 picks a free one)' })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to listen on' })
          .option('data', { type: 'string', describe: 'data directory: records survive restarts' })
          .option('api-key', { type: 'string', describe: 'apikey header the sandbox accepts (default sandbox-api-key)' })
          .option('activity-token', { type: 'string', describe: 'X-O-TOKEN the activity webhook accepts (default sandbox-activity-token)' })
          .option('lead-account', { type: 'string', describe: 'account segment of the lead webhook URL (default sandbox)' })
          .option('retention', { type: 'number', describe: 'most records kept per kind (default 10000)' })
          .option('fault', {
            type: 'string',
            array: true,
            describe: 'fault rule as JSON, repeatable, e.g. \'{"kind":"error","status":503,"rate":0.1}\'',
          })
          .example('$0 sandbox --port 4010 --data .logx-agent/sandbox', 'persistent sandbox on the default port'),
      async (args) => {
        if (failure !== undefined) return
        const sandboxArgs: SandboxArgs = { port: args.port, host: args.host, faults: args.fault ?? [] }
        if (args.data !== undefined) sandboxArgs.dataDir = args.data
        if (args['api-key'] !== undefined) sandboxArgs.apiKey = args['api-key']
        if (args['activity-token'] !== undefined) sandboxArgs.activityToken = args['activity-token']
        if (args['lead-account'] !== undefined) sandboxArgs.leadAccount = args['lead-account']
        if (args.retention !== undefined) sandboxArgs.retention = args.retention
        exitCode = await (await commands.sandbox()).sandboxCommand(sandboxArgs, io)
      },
    )
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((message: string | undefined, err: Error | undefined) => {
      failure = message ?? err?.message ?? 'invalid command line'
    })
  try {
    await cli.parseAsync()
  } catch (err) {
    failure ??= (err as Error).message
  }
  if (failure !== undefined) {
    io.stderr.write(`logx-agent: ${failure}\nRun logx-agent --help for usage.\n`)
    return 2
  }
  return exitCode
}

/** The bin entry: real streams and process signals. */
export async function main(argv: readonly string[]): Promise<void> {
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  try {
    // pm2's wait_ready (ecosystem.config.js) waits for this message before it counts the agent as up.
    const ready = (): void => {
      process.send?.('ready')
    }
    process.exitCode = await runCli(argv, { stdout: process.stdout, stderr: process.stderr, signal: controller.signal, ready })
  } catch (err) {
    process.stderr.write(`logx-agent: ${(err as Error).stack ?? String(err)}\n`)
    process.exitCode = 1
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
}
