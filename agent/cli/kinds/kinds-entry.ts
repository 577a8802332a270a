// `logx-agent kinds`'s line in the command table (commands.ts): files, or --live with the options
// every console command takes; a run that loads the command only when chosen.
import { command } from '../args/spec'

export const kindsEntry = command({
  name: 'kinds',
  summary:
    'the error kinds of log files, most frequent first (id, level, count, first and last line, template, ' +
    "a sample); --per-line: one kind id per input line; --live: the running agent's kinds",
  positionals: [{ name: 'file', kind: 'variadic', allowNone: true, describe: 'log files, read from their first line' }],
  options: {
    config: {
      type: 'string',
      describe:
        "agent config: a file in a source's paths is read with its format and multi-line rule " +
        '(with --live: where the running agent is; default config/agent.yaml)',
    },
    format: { type: 'string', describe: "auto, json or text (default: the source's format, else auto)" },
    level: { type: 'string', describe: 'only kinds of this level or worse, e.g. error' },
    json: { type: 'boolean', default: false, describe: 'print the report as one JSON document' },
    'per-line': {
      type: 'boolean',
      default: false,
      describe: 'one kind id per input line, in input order (continuation lines repeat their event id)',
    },
    live: { type: 'boolean', default: false, describe: "the running agent's kinds, through its console" },
    url: { type: 'string', describe: "with --live: the agent's console URL (default: from <state_dir>/console.json)" },
    'token-file': { type: 'string', describe: 'with --live: file with the console token (as for incidents)' },
  },
  examples: [
    { line: 'kinds logs/app.log --level error', says: 'the error and fatal kinds of app.log, most frequent first' },
    {
      line: 'kinds --config config/agent.yaml logs/java.log',
      says: "java.log's stack traces as its source reads them",
    },
    { line: 'kinds --per-line Apache_2k.log > ids.txt', says: 'one kind id per line, for a grouping benchmark' },
    { line: 'kinds --live --json', says: "the running agent's kinds as its console lists them" },
  ],
  run: async (args, io) =>
    (await import('./kinds-command.js')).kindsCommand(
      {
        files: args.file,
        config: args.config,
        url: args.url,
        tokenFile: args['token-file'],
        json: args.json,
        format: args.format,
        level: args.level,
        perLine: args['per-line'],
        live: args.live,
      },
      io,
    ),
})
