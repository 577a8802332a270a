// Every `logx-agent` command, one entry each: what its command line takes (args/spec.ts) and a `run`
// that loads its module with import() only when chosen, so the long-running `run` never holds the
// sandbox, the dry run or the validator in memory. The help and the parser read this table.

import type { IncidentAction } from './ack-command'
import { DEFAULT_CONFIG } from './default-config'
import { command, type AnyCommand, type Options } from './args/spec'
import type { ConsoleArgs } from './agent-locator'
import type { SandboxArgs } from './sandbox-command'
import { testPageEntry } from './test-page/test-page-entry'
import { consoleEntry } from './console-entry'
import { initEntry } from './init/init-entry'
import { kindsEntry } from './kinds/kinds-entry'
import { serviceEntry } from './service/service-entry'

const CONFIG_FILE = {
  name: 'config',
  kind: 'optional',
  default: DEFAULT_CONFIG,
  describe: 'agent config file (YAML)',
} as const
const JSON_REPORT = { type: 'boolean', default: false, describe: 'print the report as JSON' } as const

/** The options of every command that talks to the running agent (contract: how the CLI finds it). */
const CONSOLE_OPTIONS = {
  config: {
    type: 'string',
    default: DEFAULT_CONFIG,
    describe: "the agent's config: its state_dir tells where the running agent is, its console.token opens it",
  },
  url: { type: 'string', describe: "the agent's console URL (default: from <state_dir>/console.json)" },
  'token-file': {
    type: 'string',
    describe:
      'file with the console token (else $LOGX_CONSOLE_TOKEN, console.token of the config, <state_dir>/console.token)',
  },
  json: { type: 'boolean', default: false, describe: "print the agent's answer as JSON" },
} as const satisfies Options

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

const run = command({
  name: 'run',
  isDefault: true,
  summary:
    'run the agent: tail the sources of the config, alert by its rules ' +
    '(embedded sandbox unless a real API is configured)',
  options: {
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
  },
  examples: [{ line: 'run --config config/agent.yaml', says: 'what npm start runs' }],
  run: async (args, io) => (await import('./run-command.js')).runCommand(args, io),
})

const validate = command({
  name: 'validate',
  summary:
    'check an agent config file and print every problem as file:line:col path: message (exit 0 valid, 1 invalid)',
  positionals: [CONFIG_FILE],
  examples: [{ line: 'validate config/agent.yaml', says: 'check the shipped config' }],
  run: async (args, io) => (await import('./validate-command.js')).validateCommand({ config: args.config }, io),
})

const testRule = command({
  name: 'test-rule',
  summary:
    'dry run: which lines of existing files match which rule, which incidents form, ' +
    'and the exact messages each channel would get; nothing is sent',
  positionals: [
    { name: 'config', kind: 'required', describe: 'agent config file (YAML)' },
    { name: 'logfile', kind: 'variadic', describe: 'log files, read from their first line' },
  ],
  options: { rule: { type: 'string', describe: 'only this rule' }, json: JSON_REPORT },
  examples: [
    {
      line: 'test-rule config/agent.yaml logs/app.log --rule errors',
      says: 'what the errors rule would send for app.log',
    },
  ],
  run: async ({ config, logfile, rule, json }, io) =>
    (await import('./test-rule/test-rule-command.js')).testRuleCommand({ config, files: logfile, rule, json }, io),
})

const sandbox = command({
  name: 'sandbox',
  summary: 'start the local messaging API sandbox with its web inbox',
  options: {
    port: { type: 'number', default: 4010, describe: 'port to listen on (0 picks a free one)' },
    host: { type: 'string', default: '127.0.0.1', describe: 'interface to listen on' },
    'allow-remote': {
      type: 'boolean',
      default: false,
      describe: 'allow a --host other than a loopback address (the sandbox has no authentication worth the name)',
    },
    data: { type: 'string', describe: 'data directory: records survive restarts' },
    'api-key': { type: 'string', describe: 'apikey header the sandbox accepts (default sandbox-api-key)' },
    'activity-token': {
      type: 'string',
      describe: 'X-O-TOKEN the activity webhook accepts (default sandbox-activity-token)',
    },
    'lead-account': { type: 'string', describe: 'account segment of the lead webhook URL (default sandbox)' },
    retention: { type: 'number', describe: 'most records kept per kind (default 10000)' },
    fault: {
      type: 'string',
      repeatable: true,
      describe: 'fault rule as JSON, e.g. \'{"kind":"error","status":503,"rate":0.1}\'',
    },
  },
  examples: [
    { line: 'sandbox --port 4010 --data .logx-agent/sandbox', says: 'persistent sandbox on the default port' },
  ],
  run: async (args, io) => {
    const sandboxArgs: SandboxArgs = {
      port: args.port,
      host: args.host,
      allowRemote: args['allow-remote'],
      faults: args.fault,
    }
    if (args.data !== undefined) sandboxArgs.dataDir = args.data
    if (args['api-key'] !== undefined) sandboxArgs.apiKey = args['api-key']
    if (args['activity-token'] !== undefined) sandboxArgs.activityToken = args['activity-token']
    if (args['lead-account'] !== undefined) sandboxArgs.leadAccount = args['lead-account']
    if (args.retention !== undefined) sandboxArgs.retention = args.retention
    return (await import('./sandbox-command.js')).sandboxCommand(sandboxArgs, io)
  },
})

const oncall = command({
  name: 'oncall',
  summary:
    "who is on call in each layer of the config's schedules at a moment (default now), until when, " +
    'and the next handoffs; no running agent needed',
  positionals: [{ name: 'schedule', kind: 'optional', describe: 'only this schedule (default: every one)' }],
  options: {
    at: {
      type: 'string',
      describe:
        "when: 2026-03-08T09:00 (the schedule's own zone), 2026-03-08T03:30Z or with an offset, " +
        'or epoch ms (default now)',
    },
    config: { type: 'string', default: DEFAULT_CONFIG, describe: 'agent config file (YAML)' },
    handoffs: { type: 'number', default: 3, describe: 'how many next handoffs to list per layer (0 to 100)' },
    json: JSON_REPORT,
  },
  examples: [
    {
      line: 'oncall ops --at 2026-03-08T09:00',
      says: "who holds each layer of ops at 09:00 on March 8th in ops' time zone",
    },
  ],
  run: async (args, io) => (await import('./oncall-command.js')).oncallCommand(args, io),
})

const incidents = command({
  name: 'incidents',
  summary:
    "the running agent's open incidents: id, state, count, rule, title, who was paged, who acknowledged, last seen",
  options: {
    ...CONSOLE_OPTIONS,
    all: { type: 'boolean', default: false, describe: 'include pending incidents (not paged yet)' },
  },
  examples: [
    { line: 'incidents', says: 'firing and acknowledged incidents' },
    { line: 'incidents --all --json', says: 'every open incident, as the console API lists them' },
  ],
  run: async (args, io) =>
    (await import('./incidents-command.js')).incidentsCommand({ ...consoleArgs(args), all: args.all }, io),
})

/** `ack`, `unack` and `resolve`: one shape, one module. */
const incidentAction = (action: IncidentAction, summary: string): AnyCommand =>
  command({
    name: action,
    summary,
    positionals: [
      { name: 'incident', kind: 'required', describe: 'incident key, or a unique prefix of it or of its hash' },
    ],
    options: { ...CONSOLE_OPTIONS, by: { type: 'string', describe: 'who does it (default $USER, else cli)' } },
    examples: [
      {
        line: `${action} 3fa9 --by asha`,
        says: 'the open incident whose key (or its part after the rule name) starts with 3fa9, as asha',
      },
    ],
    run: async (args, io) =>
      (await import('./ack-command.js')).ackCommand(
        { ...consoleArgs(args), action, incident: args.incident, by: args.by },
        io,
      ),
  })

const silence = command({
  name: 'silence',
  summary: 'mute alerts matching --match for --for (kept in the state directory, not the YAML)',
  options: {
    ...CONSOLE_OPTIONS,
    match: {
      type: 'string',
      repeatable: true,
      describe:
        'key=value to match (rule, fingerprint, title or a field of the line); ' +
        'a /regex/flags value is a pattern; all must match',
    },
    for: { type: 'string', describe: 'how long, e.g. 30m, 2h, 1h30m' },
    comment: { type: 'string', describe: 'why (shown in silence list and the console)' },
    by: { type: 'string', describe: 'who (default $USER, else cli)' },
  },
  subcommands: [
    command({
      name: 'list',
      summary: "the silences of the running agent: run-time ones and the config's",
      options: CONSOLE_OPTIONS,
      run: async (args, io) => (await import('./silence-command.js')).silenceListCommand(consoleArgs(args), io),
    }),
    command({
      name: 'expire',
      summary: 'end a run-time silence now',
      positionals: [{ name: 'id', kind: 'required', describe: 'the silence id (silence list)' }],
      options: CONSOLE_OPTIONS,
      run: async (args, io) =>
        (await import('./silence-command.js')).silenceExpireCommand({ ...consoleArgs(args), id: args.id }, io),
    }),
  ],
  examples: [
    { line: 'silence --match rule=db --for 2h --comment "db migration"', says: 'mute the db rule for two hours' },
    { line: 'silence list', says: 'every silence and its expiry' },
    { line: 'silence expire 7c1e2a90', says: 'end a silence now' },
  ],
  run: async ({ match, for: duration, comment, by, ...rest }, io) =>
    (await import('./silence-command.js')).silenceCommand(
      { ...consoleArgs(rest), match, for: duration, comment, by },
      io,
    ),
})

/** The commands in the order `logx-agent --help` lists them. */
export const COMMANDS: readonly AnyCommand[] = [
  run,
  validate,
  testRule,
  kindsEntry,
  sandbox,
  oncall,
  incidents,
  incidentAction('ack', 'acknowledge an open incident of the running agent: its escalation and repeats stop'),
  incidentAction('unack', 'take an acknowledgement back: the incident pages again and escalation resumes'),
  incidentAction('resolve', 'resolve an incident by hand; the next matching line opens a new one'),
  silence,
  consoleEntry,
  testPageEntry,
  initEntry,
  serviceEntry,
]
