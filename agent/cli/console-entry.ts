// `logx-agent console`'s line in the command table (commands.ts): the options every console command
// takes, and a run that loads the command only when chosen.
import { command } from './args/spec'
import { DEFAULT_CONFIG } from './default-config'

export const consoleEntry = command({
  name: 'console',
  summary:
    "a fresh one-time login URL of the running agent's web console (works once, within 10 minutes); " +
    'the page opened with it needs no token',
  options: {
    config: {
      type: 'string',
      default: DEFAULT_CONFIG,
      describe: "the agent's config: its state_dir tells where the running agent is, its console.token opens it",
    },
    url: { type: 'string', describe: "the agent's console URL (default: from <state_dir>/console.json)" },
    'token-file': { type: 'string', describe: 'file with the console token (as for incidents)' },
    json: { type: 'boolean', default: false, describe: 'print { url, expiresAt } as JSON' },
  },
  examples: [{ line: 'console', says: 'http://127.0.0.1:9464/#login=...: open it in a browser' }],
  run: async (args, io) =>
    (await import('./console-command.js')).consoleCommand(
      { config: args.config, url: args.url, tokenFile: args['token-file'], json: args.json },
      io,
    ),
})
