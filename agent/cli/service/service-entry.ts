// `logx-agent service install|uninstall`'s line in the command table (commands.ts).
import { command, type AnyCommand } from '../args/spec'
import { DEFAULT_CONFIG } from '../default-config'

const SERVICE_OPTIONS = {
  user: {
    type: 'boolean',
    describe: "the user's own systemd manager (~/.config/systemd/user) instead of the system's",
  },
  config: { type: 'string', default: DEFAULT_CONFIG, describe: 'the agent config the unit runs' },
  name: { type: 'string', default: 'logx-agent', describe: 'the unit name' },
  'dry-run': { type: 'boolean', describe: 'print what would be done; write nothing' },
  force: { type: 'boolean', describe: 'replace (install) or remove (uninstall) a unit file not as expected' },
} as const

const action = (name: 'install' | 'uninstall', summary: string): AnyCommand =>
  command({
    name,
    summary,
    options: SERVICE_OPTIONS,
    run: async (args, io) =>
      (await import('./service-command.js')).serviceCommand(
        name,
        { user: args.user, config: args.config, name: args.name, dryRun: args['dry-run'], force: args.force },
        io,
      ),
  })

export const serviceEntry = command({
  name: 'service',
  summary: 'a systemd unit for hosts without pm2: service install [--user], service uninstall',
  subcommands: [
    action('install', 'write a hardened systemd unit that runs the agent on the config, and say how to enable it'),
    action('uninstall', 'remove the unit service install wrote (once disabled)'),
  ],
  examples: [
    { line: 'service install --dry-run', says: 'show the unit and where it would go' },
    { line: 'service install --user', says: "a unit of the user's own systemd manager" },
  ],
  run: (_args, io) => {
    io.stderr.write('logx-agent service: say install or uninstall (logx-agent service --help)\n')
    return Promise.resolve(2)
  },
})
