// The systemd unit `logx-agent service install` writes, for hosts without pm2. Pure: what the
// installer found in, the unit's text out. The rules:
// 1. Type=simple: the agent sends no sd_notify (its ready signal is pm2's process.send), so systemd
//    counts it started once it runs; Restart=on-failure brings it back after a crash, and a stop
//    waits TimeoutStopSec=15s, above the agent's 10 s outbox drain (DRAIN_TIMEOUT_MS).
// 2. ExecStart runs the absolute node with the agent's node flags (as ecosystem.config.js and
//    `npm start`), the absolute bin, `run --config <absolute config>`; an argument with a space,
//    quote, backslash, `$` or `%` is double-quoted and escaped as systemd reads it.
// 3. WorkingDirectory is where the installer ran: the config's relative paths resolve there.
// 4. StateDirectory=<name> always; systemd sets STATE_DIRECTORY, which the config `init` writes uses
//    for state_dir. A config whose state_dir is elsewhere gets ReadWritePaths= for it.
// 5. The tailed logs' directories are ReadOnlyPaths=, each with `-` (a directory missing at start
//    does not fail the unit: the agent picks up files that appear later).
// 6. ProtectHome=yes unless something the agent runs or reads lives under /home, /root or /run/user
//    (node, bin, config, working directory, logs, state): read-only then (a writable state directory
//    there gets rule 4's ReadWritePaths=, which wins over it).
// 7. Always: NoNewPrivileges=yes, ProtectSystem=strict, PrivateTmp=yes, and the kernel, cgroup,
//    SUID and realtime protections a log reader never needs. No MemoryDenyWriteExecute: V8's JIT
//    writes code.
// 8. [Install] WantedBy=multi-user.target for the system manager, default.target for --user.
// 9. The first line marks the file as written here: uninstall removes only such a file.

import { dirname } from 'node:path'

export interface UnitInput {
  name: string
  /** A --user unit (the user's own manager) instead of a system one. */
  user: boolean
  nodePath: string
  nodeArgs: readonly string[]
  binPath: string
  configPath: string
  workingDirectory: string
  /** The config's state_dir, absolute, read with STATE_DIRECTORY set to stateDirectory. */
  stateDir: string
  /** Where systemd puts StateDirectory=<name> for this manager. */
  stateDirectory: string
  /** Absolute directories the tailed globs start in. */
  logDirs: readonly string[]
}

export const UNIT_MARKER = '# Written by `logx-agent service install`'

const HOME_TREES = ['/home', '/root', '/run/user']

const under = (path: string, tree: string): boolean => path === tree || path.startsWith(`${tree}/`)

/** Rule 2: an ExecStart argument as systemd reads it. */
export function quoteArg(arg: string): string {
  const escaped = arg.replace(/%/g, '%%').replace(/\$/g, '$$$$')
  if (!/[\s"'\\]/.test(arg)) return escaped
  return `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/** Rule 6. */
export function protectHome(input: UnitInput): 'yes' | 'read-only' {
  const used = [input.nodePath, input.binPath, input.configPath, input.workingDirectory, input.stateDir]
  used.push(...input.logDirs)
  return used.some((path) => HOME_TREES.some((tree) => under(path, tree))) ? 'read-only' : 'yes'
}

function serviceSection(input: UnitInput): string[] {
  const exec = [input.nodePath, ...input.nodeArgs, input.binPath, 'run', '--config', input.configPath]
  const lines = [
    '[Service]',
    'Type=simple',
    `ExecStart=${exec.map(quoteArg).join(' ')}`,
    // A path setting takes no quotes; only its specifiers need escaping.
    `WorkingDirectory=${input.workingDirectory.replace(/%/g, '%%')}`,
    'Environment=NODE_ENV=production',
    'Restart=on-failure',
    'RestartSec=5s',
    'TimeoutStopSec=15s',
    '',
    '# Hardening: the agent reads logs, writes its state directory and talks to the messaging API.',
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    `ProtectHome=${protectHome(input)}`,
    'PrivateTmp=yes',
    'ProtectKernelTunables=yes',
    'ProtectKernelModules=yes',
    'ProtectControlGroups=yes',
    'RestrictSUIDSGID=yes',
    'RestrictRealtime=yes',
    'LockPersonality=yes',
    `StateDirectory=${input.name}`,
  ]
  if (input.stateDir !== input.stateDirectory) lines.push(`ReadWritePaths=${quoteArg(input.stateDir)}`)
  const logDirs = [...new Set(input.logDirs)].sort()
  if (logDirs.length > 0) lines.push(`ReadOnlyPaths=${logDirs.map((dir) => quoteArg(`-${dir}`)).join(' ')}`)
  return lines
}

export function renderUnit(input: UnitInput): string {
  const lines = [
    UNIT_MARKER,
    '[Unit]',
    'Description=logx-agent: pages people about error and fatal log lines',
    `Documentation=file://${dirname(dirname(input.binPath))}/docs/operations.md`,
    // The user manager has no network-online.target; the system one starts the agent once it is up.
    ...(input.user ? [] : ['After=network-online.target', 'Wants=network-online.target']),
    '',
    ...serviceSection(input),
    '',
    '[Install]',
    `WantedBy=${input.user ? 'default.target' : 'multi-user.target'}`,
  ]
  return `${lines.join('\n')}\n`
}
