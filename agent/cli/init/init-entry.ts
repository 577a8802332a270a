// `logx-agent init`'s line in the command table (commands.ts): its flags, and a run that loads the
// command only when chosen.
import { command } from '../args/spec'
import { DEFAULT_CONFIG } from '../default-config'

export const initEntry = command({
  name: 'init',
  summary:
    'write a commented starter config from what this machine has (pm2, ./logs, containers, journald) ' +
    'and who to page; asks on a terminal, --yes takes defaults and flags',
  options: {
    yes: { type: 'boolean', short: 'y', describe: 'ask nothing: defaults plus the flags below' },
    config: { type: 'string', default: DEFAULT_CONFIG, describe: 'the file to write' },
    force: { type: 'boolean', describe: 'replace the file when it exists' },
    person: { type: 'string', describe: 'who gets paged, a name (default oncall)' },
    phone: { type: 'string', describe: 'their phone number with its country code (SMS; missed calls from it ack)' },
    email: { type: 'string', describe: 'their e-mail address (adds a mail channel)' },
    'mail-from': { type: 'string', describe: 'sender address of the mail channel (default logx-agent@example.com)' },
    api: { type: 'string', describe: 'sandbox (default: nothing leaves this machine) or real' },
    'base-url': { type: 'string', describe: 'the messaging API base URL (with --api real)' },
    'api-key-file': { type: 'string', describe: 'file the API key is read from (the key is never written)' },
    'api-key-env': { type: 'string', describe: 'environment variable the API key is read from (default LOGX_API_KEY)' },
    'missed-call-number': { type: 'string', describe: 'the number pages say to give a missed call to (--api real)' },
    skip: { type: 'string', repeatable: true, describe: 'leave a detected source out, by name or kind (journald)' },
  },
  examples: [
    { line: 'init', says: 'look at this machine, ask, write config/agent.yaml' },
    { line: 'init --yes --person asha --phone +919800000001', says: 'the same without questions, on the sandbox' },
  ],
  run: async (args, io) =>
    (await import('./terminal-prompt.js')).initFromTerminal(
      {
        config: args.config,
        yes: args.yes,
        force: args.force,
        person: args.person,
        phone: args.phone,
        email: args.email,
        mailFrom: args['mail-from'],
        api: args.api,
        baseUrl: args['base-url'],
        apiKeyFile: args['api-key-file'],
        apiKeyEnv: args['api-key-env'],
        missedCallNumber: args['missed-call-number'],
        skip: args.skip,
      },
      io,
    ),
})
