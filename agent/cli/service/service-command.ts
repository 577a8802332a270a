// `logx-agent service install|uninstall`: a systemd unit for hosts without pm2. install reads the
// config (the unit needs its state directory and the logs it tails), renders the unit
// (render-unit.ts), writes it (never over a file without --force; --dry-run only prints it) and says
// how to enable it; uninstall removes a unit it wrote, once it is disabled.
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { problemLine } from '../problem-line'
import { readAgentConfig } from '../../config/load/load-config'
import { replaceFileAsync } from '../../storage/replace-file'
import { compileGlob } from '../../tail/glob'
import { missingConfigMessage } from '../init/missing-config'
import type { CliIo } from '../io'
import { renderUnit, UNIT_MARKER, type UnitInput } from './render-unit'

export interface ServiceArgs {
  user: boolean
  config: string
  name: string
  dryRun: boolean
  force: boolean
}

/** Where the unit goes and what it runs; tests replace each part. */
export interface ServiceEnvironment {
  /** The directory units of the chosen manager live in. */
  unitDir: string
  /** Where systemd puts StateDirectory=<name> for that manager. */
  stateDirectory: string
  cwd: string
  nodePath: string
  binPath: string
}

/** The agent's node flags, the same as ecosystem.config.js's node_args and `npm start`'s. */
export const AGENT_NODE_ARGS = ['--max-semi-space-size=1', '--single-threaded', '--optimize-for-size']

/** bin/logx-agent.js of the package this code is in: found by walking up to its package.json. */
export function packageBin(from: string = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'logx')
      return join(dir, 'bin', 'logx-agent.js')
  }
  throw new Error(`no logx package.json above ${from}`)
}

export function defaultServiceEnvironment(args: Pick<ServiceArgs, 'user' | 'name'>): ServiceEnvironment {
  const env = process.env
  const configHome = env.XDG_CONFIG_HOME ?? join(homedir(), '.config')
  const stateHome = env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state')
  return {
    unitDir: args.user ? join(configHome, 'systemd', 'user') : '/etc/systemd/system',
    stateDirectory: join(args.user ? stateHome : '/var/lib', args.name),
    cwd: process.cwd(),
    nodePath: realpathSync(process.execPath),
    binPath: realpathSync(packageBin()),
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]*$/

const systemctl = (args: ServiceArgs): string => (args.user ? 'systemctl --user' : 'systemctl')
const unitFile = (args: ServiceArgs, environment: ServiceEnvironment): string =>
  join(environment.unitDir, `${args.name}.service`)

function badName(args: ServiceArgs, io: CliIo): boolean {
  if (NAME.test(args.name)) return false
  io.stderr.write(`logx-agent service: --name ${JSON.stringify(args.name)}: expected letters, digits, _ . @ -\n`)
  return true
}

async function unitInput(args: ServiceArgs, environment: ServiceEnvironment, io: CliIo) {
  const config = resolve(environment.cwd, args.config)
  const missing = await missingConfigMessage(config, 'name another with --config FILE')
  if (missing !== undefined) {
    io.stderr.write(missing)
    return 2
  }
  // Read as the unit will run it: in its working directory, with systemd's STATE_DIRECTORY.
  const env = { ...process.env, STATE_DIRECTORY: environment.stateDirectory }
  const result = await readAgentConfig(config, { env, cwd: environment.cwd })
  if (!result.ok) {
    for (const problem of result.problems) io.stderr.write(`${problemLine(problem)}\n`)
    io.stderr.write(`${args.config}: the unit would not start; fix the config first\n`)
    return 1
  }
  const sources = result.config.sources
  const globs = sources.flatMap((source) => [...source.paths, ...(source.journald?.journalFiles ?? [])])
  const input: UnitInput = {
    name: args.name,
    user: args.user,
    nodePath: environment.nodePath,
    nodeArgs: AGENT_NODE_ARGS,
    binPath: environment.binPath,
    configPath: config,
    workingDirectory: environment.cwd,
    stateDir: result.config.stateDir,
    stateDirectory: environment.stateDirectory,
    logDirs: globs.map((glob) => compileGlob(glob, environment.cwd).base),
  }
  return input
}

export async function serviceInstall(args: ServiceArgs, io: CliIo, environment: ServiceEnvironment): Promise<number> {
  if (badName(args, io)) return 2
  const input = await unitInput(args, environment, io)
  if (typeof input === 'number') return input
  const unit = renderUnit(input)
  const file = unitFile(args, environment)
  if (args.dryRun) {
    io.stdout.write(`# ${file} (--dry-run: not written)\n${unit}`)
    return 0
  }
  if (existsSync(file) && !args.force) {
    io.stderr.write(`logx-agent service: ${file} exists; nothing written (--force replaces it)\n`)
    return 1
  }
  await mkdir(environment.unitDir, { recursive: true })
  await replaceFileAsync(file, unit, { mode: 0o644 })
  const ctl = systemctl(args)
  io.stdout.write(
    `Wrote ${file}\nEnable and start it:\n  ${ctl} daemon-reload && ${ctl} enable --now ${args.name}\n` +
      `Its output: journalctl ${args.user ? '--user ' : ''}-u ${args.name} -f\n`,
  )
  return 0
}

/** The enable links `systemctl enable` made for the unit's WantedBy target. */
function enableLinks(args: ServiceArgs, environment: ServiceEnvironment): string[] {
  const target = args.user ? 'default.target' : 'multi-user.target'
  const link = join(environment.unitDir, `${target}.wants`, `${args.name}.service`)
  return existsSync(link) ? [link] : []
}

export async function serviceUninstall(args: ServiceArgs, io: CliIo, environment: ServiceEnvironment): Promise<number> {
  if (badName(args, io)) return 2
  const file = unitFile(args, environment)
  const ctl = systemctl(args)
  if (!existsSync(file)) {
    io.stderr.write(`logx-agent service: no unit at ${file}; nothing removed\n`)
    return 1
  }
  if (!readFileSync(file, 'utf8').startsWith(UNIT_MARKER) && !args.force) {
    io.stderr.write(`logx-agent service: ${file} was not written by service install; kept (--force removes it)\n`)
    return 1
  }
  // systemctl disable needs the unit file to find what to unlink: it goes first.
  if (enableLinks(args, environment).length > 0) {
    io.stderr.write(
      `logx-agent service: ${args.name} is enabled; disable it first, then uninstall again:\n` +
        `  ${ctl} disable --now ${args.name}\n`,
    )
    return 1
  }
  if (args.dryRun) {
    io.stdout.write(`would remove ${file} (--dry-run)\n`)
    return 0
  }
  await rm(file)
  io.stdout.write(
    `Removed ${file}\nIf it still runs, stop it and let systemd forget it:\n` +
      `  ${ctl} stop ${args.name}; ${ctl} daemon-reload\n`,
  )
  return 0
}

/** The entry the command table calls: `service install` or `service uninstall` on this host. */
export function serviceCommand(action: 'install' | 'uninstall', args: ServiceArgs, io: CliIo): Promise<number> {
  const environment = defaultServiceEnvironment(args)
  return action === 'install' ? serviceInstall(args, io, environment) : serviceUninstall(args, io, environment)
}
