// `logx-agent` entry: `run` (default), `validate`, `test-rule`, `sandbox`, `oncall`, and the commands
// that talk to the running agent through its console API: `incidents`, `ack`/`unack`/`resolve`,
// `silence`. yargs 18 ships as ESM only, so it is loaded with a dynamic import(), which works from
// this CommonJS build on every supported Node.

import type { Argv } from 'yargs'
import { runCommand } from './run-command'
import { DEFAULT_CONFIG, parseRunFastPath, RUN_OPTIONS } from './run-fast-path'
import type { IncidentAction } from './ack-command'
import type { ConsoleArgs } from './agent-locator'
import type { SandboxArgs } from './sandbox-command'
import type { CliIo } from './io'

// The one-shot commands are loaded when chosen: the long-running `run` never holds the sandbox,
// the dry run or the validator in memory.
const commands = {
  ack: () => import('./ack-command.js'),
  incidents: () => import('./incidents-command.js'),
  oncall: () => import('./oncall-command.js'),
  sandbox: () => import('./sandbox-command.js'),
  silence: () => import('./silence-command.js'),
  testRule: () => import('./test-rule/test-rule-command.js'),
  validate: () => import('./validate-command.js'),
}

export type { CliIo } from './io'

/** The options of every command that talks to the running agent (contract: how the CLI finds it). */
function consoleOptions<T>(y: Argv<T>) {
  return y
    .option('config', {
      type: 'string',
      default: DEFAULT_CONFIG,
      describe: "the agent's config: its state_dir tells where the running agent is, its console.token opens it",
    })
    .option('url', { type: 'string', describe: "the agent's console URL (default: from <state_dir>/console.json)" })
    .option('token-file', {
      type: 'string',
      describe:
        'file with the console token ' +
        '(else $LOGX_CONSOLE_TOKEN, console.token of the config, <state_dir>/console.token)',
    })
    .option('json', { type: 'boolean', default: false, describe: "print the agent's answer as JSON" })
}

const consoleArgs = (args: {
  config: string
  url: string | undefined
  'token-file': string | undefined
  json: boolean
}): ConsoleArgs => ({
  config: args.config,
  url: args.url,
  tokenFile: args['token-file'],
  json: args.json,
})

const ACTIONS: readonly (readonly [IncidentAction, string])[] = [
  ['ack', 'acknowledge an open incident of the running agent: its escalation and repeats stop'],
  ['unack', 'take an acknowledgement back: the incident pages again and escalation resumes'],
  ['resolve', 'resolve an incident by hand; the next matching line opens a new one'],
]

/** What the chosen command ended with, or why the command line was refused. */
interface Outcome {
  exitCode: number
  failure: string | undefined
}

/** A command's handler: runs it unless yargs already refused the command line, and keeps its exit code. */
function handler<A>(outcome: Outcome, run: (args: A) => Promise<number>): (args: A) => Promise<void> {
  return async (args) => {
    // With exitProcess(false) yargs still calls the handler after a strict-mode failure.
    if (outcome.failure !== undefined) return
    outcome.exitCode = await run(args)
  }
}

/** `run`, `validate` and `test-rule`: the agent and its config, read from files. */
function configCommands(cli: Argv, outcome: Outcome, io: CliIo): void {
  cli
    .command(
      ['run', '$0'],
      'run the agent: tail the sources of the config, alert by its rules ' +
        '(embedded sandbox unless a real API is configured)',
      (y) => y.options(RUN_OPTIONS).example('$0 run --config config/agent.yaml', 'what npm start runs'),
      handler(outcome, (args) =>
        runCommand({ config: args.config, port: args.port, host: args.host, tap: args.tap }, io),
      ),
    )
    .command(
      'validate <config>',
      'check an agent config file and print every problem as file:line:col path: message (exit 0 valid, 1 invalid)',
      (y) =>
        y
          .positional('config', { type: 'string', demandOption: true, describe: 'agent config file (YAML)' })
          .example('$0 validate config/agent.yaml', 'check the shipped config'),
      handler(outcome, async (args) => (await commands.validate()).validateCommand({ config: args.config }, io)),
    )
    .command(
      'test-rule <config> <logfile...>',
      'dry run: which lines of existing files match which rule, which incidents form, ' +
        'and the exact messages each channel would get; nothing is sent',
      (y) =>
        y
          .positional('config', { type: 'string', demandOption: true, describe: 'agent config file (YAML)' })
          .positional('logfile', {
            type: 'string',
            array: true,
            demandOption: true,
            describe: 'log files, read from their first line',
          })
          .option('rule', { type: 'string', describe: 'only this rule' })
          .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' })
          .example(
            '$0 test-rule config/agent.yaml logs/app.log --rule errors',
            'what the errors rule would send for app.log',
          ),
      handler(outcome, async (args) =>
        (await commands.testRule()).testRuleCommand(
          { config: args.config, files: args.logfile, rule: args.rule, json: args.json },
          io,
        ),
      ),
    )
}

/** `sandbox` and `oncall`: tools that need no running agent. */
function toolCommands(cli: Argv, outcome: Outcome, io: CliIo): void {
  cli
    .command(
      'sandbox',
      'start the local messaging API sandbox with its web inbox',
      (y) =>
        y
          .option('port', { type: 'number', default: 4010, describe: 'port to listen on (0 picks a free one)' })
          .option('host', { type: 'string', default: '127.0.0.1', describe: 'interface to listen on' })
          .option('data', { type: 'string', describe: 'data directory: records survive restarts' })
          .option('api-key', {
            type: 'string',
            describe: 'apikey header the sandbox accepts (default sandbox-api-key)',
          })
          .option('activity-token', {
            type: 'string',
            describe: 'X-O-TOKEN the activity webhook accepts (default sandbox-activity-token)',
          })
          .option('lead-account', {
            type: 'string',
            describe: 'account segment of the lead webhook URL (default sandbox)',
          })
          .option('retention', { type: 'number', describe: 'most records kept per kind (default 10000)' })
          .option('fault', {
            type: 'string',
            array: true,
            describe: 'fault rule as JSON, repeatable, e.g. \'{"kind":"error","status":503,"rate":0.1}\'',
          })
          .example('$0 sandbox --port 4010 --data .logx-agent/sandbox', 'persistent sandbox on the default port'),
      handler(outcome, async (args) => {
        const sandboxArgs: SandboxArgs = { port: args.port, host: args.host, faults: args.fault ?? [] }
        if (args.data !== undefined) sandboxArgs.dataDir = args.data
        if (args['api-key'] !== undefined) sandboxArgs.apiKey = args['api-key']
        if (args['activity-token'] !== undefined) sandboxArgs.activityToken = args['activity-token']
        if (args['lead-account'] !== undefined) sandboxArgs.leadAccount = args['lead-account']
        if (args.retention !== undefined) sandboxArgs.retention = args.retention
        return (await commands.sandbox()).sandboxCommand(sandboxArgs, io)
      }),
    )
    .command(
      'oncall [schedule]',
      "who is on call in each layer of the config's schedules at a moment (default now), until when, " +
        'and the next handoffs; no running agent needed',
      (y) =>
        y
          .positional('schedule', { type: 'string', describe: 'only this schedule (default: every one)' })
          .option('at', {
            type: 'string',
            describe:
              "when: 2026-03-08T09:00 (the schedule's own zone), 2026-03-08T03:30Z or with an offset, " +
              'or epoch ms (default now)',
          })
          .option('config', { type: 'string', default: DEFAULT_CONFIG, describe: 'agent config file (YAML)' })
          .option('handoffs', {
            type: 'number',
            default: 3,
            describe: 'how many next handoffs to list per layer (0 to 100)',
          })
          .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' })
          .example(
            '$0 oncall ops --at 2026-03-08T09:00',
            "who holds each layer of ops at 09:00 on March 8th in ops' time zone",
          ),
      handler(outcome, async (args) => {
        const { config, schedule, at, json, handoffs } = args
        return (await commands.oncall()).oncallCommand({ config, schedule, at, json, handoffs }, io)
      }),
    )
}

/** `incidents`, `ack`/`unack`/`resolve`: the running agent's incidents, through its console API. */
function incidentCommands(cli: Argv, outcome: Outcome, io: CliIo): void {
  cli.command(
    'incidents',
    "the running agent's open incidents: id, state, count, rule, title, who was paged, who acknowledged, last seen",
    (y) =>
      consoleOptions(y)
        .option('all', { type: 'boolean', default: false, describe: 'include pending incidents (not paged yet)' })
        .example('$0 incidents', 'firing and acknowledged incidents')
        .example('$0 incidents --all --json', 'every open incident, as the console API lists them'),
    handler(outcome, async (args) =>
      (await commands.incidents()).incidentsCommand({ ...consoleArgs(args), all: args.all }, io),
    ),
  )
  for (const [action, describe] of ACTIONS) {
    cli.command(
      `${action} <incident>`,
      describe,
      (y) =>
        consoleOptions(y)
          .positional('incident', {
            type: 'string',
            demandOption: true,
            describe: 'incident key, or a unique prefix of it or of its hash',
          })
          .option('by', { type: 'string', describe: 'who does it (default $USER, else cli)' })
          .example(
            `$0 ${action} 3fa9 --by asha`,
            'the open incident whose key (or its part after the rule name) starts with 3fa9, as asha',
          ),
      handler(outcome, async (args) =>
        (await commands.ack()).ackCommand({ ...consoleArgs(args), action, incident: args.incident, by: args.by }, io),
      ),
    )
  }
}

/** `silence`, `silence list`, `silence expire`: run-time silences of the running agent. */
function silenceCommands(cli: Argv, outcome: Outcome, io: CliIo): void {
  cli.command(
    'silence',
    'mute alerts matching --match for --for (kept in the state directory, not the YAML); ' +
      'silence list, silence expire <id>',
    (y) =>
      consoleOptions(y)
        .command(
          'list',
          "the silences of the running agent: run-time ones and the config's",
          (l) => consoleOptions(l),
          handler(outcome, async (args) => (await commands.silence()).silenceListCommand(consoleArgs(args), io)),
        )
        .command(
          'expire <id>',
          'end a run-time silence now',
          (e) =>
            consoleOptions(e).positional('id', {
              type: 'string',
              demandOption: true,
              describe: 'the silence id (silence list)',
            }),
          handler(outcome, async (args) =>
            (await commands.silence()).silenceExpireCommand({ ...consoleArgs(args), id: args.id }, io),
          ),
        )
        // global: false keeps these off `silence list` and `silence expire`.
        .option('match', {
          type: 'string',
          array: true,
          global: false,
          describe:
            'key=value to match (rule, fingerprint, title or a field of the line); ' +
            'a /regex/flags value is a pattern; repeatable, all must match',
        })
        .option('for', { type: 'string', global: false, describe: 'how long, e.g. 30m, 2h, 1h30m' })
        .option('comment', { type: 'string', global: false, describe: 'why (shown in silence list and the console)' })
        .option('by', { type: 'string', global: false, describe: 'who (default $USER, else cli)' })
        .example('$0 silence --match rule=db --for 2h --comment "db migration"', 'mute the db rule for two hours')
        .example('$0 silence list', 'every silence and its expiry')
        .example('$0 silence expire 7c1e2a90', 'end a silence now'),
    handler(outcome, async (args) => {
      const { match, for: duration, comment, by } = args
      const silence = { ...consoleArgs(args), match: match ?? [], for: duration, comment, by }
      return (await commands.silence()).silenceCommand(silence, io)
    }),
  )
}

/** Parses argv and runs the command; resolves with the exit code. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // The long-running command skips yargs (and its memory); every other command line goes through it.
  const run = parseRunFastPath(argv)
  if (run !== undefined) return runCommand(run, io)
  const { default: yargs } = await import('yargs')
  const outcome: Outcome = { exitCode: 0, failure: undefined }
  const cli: Argv = yargs([...argv])
    .scriptName('logx-agent')
    .usage('$0 <command> [options]')
  configCommands(cli, outcome, io)
  toolCommands(cli, outcome, io)
  incidentCommands(cli, outcome, io)
  silenceCommands(cli, outcome, io)
  cli
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((message: string | undefined, err: Error | undefined) => {
      outcome.failure = message ?? err?.message ?? 'invalid command line'
    })
  try {
    await cli.parseAsync()
  } catch (err) {
    outcome.failure ??= (err as Error).message
  }
  if (outcome.failure !== undefined) {
    io.stderr.write(`logx-agent: ${outcome.failure}\nRun logx-agent --help for usage.\n`)
    return 2
  }
  return outcome.exitCode
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
    process.exitCode = await runCli(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      signal: controller.signal,
      ready,
    })
  } catch (err) {
    process.stderr.write(`logx-agent: ${(err as Error).stack ?? String(err)}\n`)
    process.exitCode = 1
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
}
