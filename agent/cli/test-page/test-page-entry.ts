// `logx-agent test-page`'s line in the command table (commands.ts): its argument and flags, and a
// run that loads the command only when chosen.
import { command } from '../args/spec'
import { DEFAULT_CONFIG } from '../default-config'

export const testPageEntry = command({
  name: 'test-page',
  summary:
    'fire drill: one page marked TEST PAGE to a person (each of their channels) or to a channel, then wait ' +
    'for their missed call and report each step (exit 0 acknowledged, 1 timed out, 2 bad usage or config)',
  positionals: [{ name: 'target', kind: 'required', describe: 'a person or a channel of the config' }],
  options: {
    config: {
      type: 'string',
      default: DEFAULT_CONFIG,
      describe: 'agent config file (YAML): the people and channels, and where the running agent is',
    },
    timeout: { type: 'string', default: '5m', describe: 'how long to wait for the missed call (at most 1h)' },
    url: { type: 'string', describe: "the running agent's console URL (default: from <state_dir>/console.json)" },
    'token-file': { type: 'string', describe: 'file with the console token (as for incidents)' },
    json: { type: 'boolean', default: false, describe: 'print the final progress as JSON' },
  },
  examples: [
    { line: 'test-page asha', says: 'page asha on each of her channels and wait 5 minutes for her missed call' },
    { line: 'test-page oncall-sms --timeout 2m', says: "page the oncall-sms channel's own recipients" },
  ],
  run: async (args, io) =>
    (await import('./command.js')).testPageCommand(
      {
        config: args.config,
        url: args.url,
        tokenFile: args['token-file'],
        json: args.json,
        target: args.target,
        timeout: args.timeout,
      },
      io,
    ),
})
