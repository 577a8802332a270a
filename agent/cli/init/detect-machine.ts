// What `logx-agent init` proposes to read on this machine. Pure: probe-machine.ts lists the places
// (`candidatePlaces`) and says which exist and what they hold; this decides. The rules, in order:
// 1. pm2's log directory is $PM2_HOME/logs when PM2_HOME is set, else $HOME/.pm2/logs;
// 2. that directory with `<app>-out.log` / `<app>-error.log` files (pm2 cluster instances add `-<n>`):
//    one source per app, named `pm2-<app>`, reading both files of the app and its instances (and no
//    other app whose name starts alike). At most MAX_PM2_APPS apps; past that, or when an app's name
//    is no config name, one `pm2` source over the whole directory;
// 3. that directory without app files: one `pm2` source over its `*.log` (apps started later). A
//    source over the whole directory excludes the copies pm2-logrotate leaves (`<app>-out__<date>.log`);
// 4. ./logs (in the working directory): an `app` source over its `*.log`;
// 5. Docker's container directory: a `docker` source over `<id>/<id>-json.log`, format docker;
// 6. Kubernetes' /var/log/containers: a `kubernetes` source there, format cri; /var/log/pods alone
//    (no /var/log/containers): the same source over the pods' files. Both present: only the first,
//    since its files are links to the second's and reading both would page twice;
// 7. `journalctl` on the PATH: a `journal` source of type journald, errors and worse;
// 8. no file source found by 2-6: the `app` source over ./logs anyway (files that appear later are
//    picked up), marked as a guess.

import { join } from 'node:path'

/** Where the probe looks; tests point these into a temp directory. */
export interface MachineRoots {
  home: string
  cwd: string
  dockerContainers: string
  kubeContainers: string
  kubePods: string
}

export const SYSTEM_ROOTS: Omit<MachineRoots, 'home' | 'cwd'> = {
  dockerContainers: '/var/lib/docker/containers',
  kubeContainers: '/var/log/containers',
  kubePods: '/var/log/pods',
}

/** What the probe found: each existing place and the names in it; whether journalctl runs. */
export interface MachineFacts {
  /** Directory -> its entries; a directory missing from the map does not exist. */
  listings: ReadonlyMap<string, readonly string[]>
  hasJournalctl: boolean
}

export type DetectedKind = 'pm2' | 'logs' | 'docker' | 'kubernetes' | 'journald'

export interface DetectedSource {
  name: string
  kind: DetectedKind
  /** Globs (absolute, or relative to the working directory for ./logs); empty for journald. */
  paths: readonly string[]
  exclude: readonly string[]
  format: 'auto' | 'docker' | 'cri' | undefined
  /** Why it is proposed, for the comment above it and the prompt. */
  reason: string
}

export const MAX_PM2_APPS = 12

const PM2_FILE = /^(.+)-(out|error)(-\d+)?\.log$/
const CONFIG_NAME = /^[A-Za-z0-9][\w.-]*$/

/** Rule 1. */
export function pm2LogDir(env: Readonly<Record<string, string | undefined>>, roots: MachineRoots): string {
  const pm2Home = env.PM2_HOME
  return pm2Home !== undefined && pm2Home !== '' ? join(pm2Home, 'logs') : join(roots.home, '.pm2', 'logs')
}

/** Every directory the probe should list. */
export function candidatePlaces(env: Readonly<Record<string, string | undefined>>, roots: MachineRoots): string[] {
  return [pm2LogDir(env, roots), join(roots.cwd, 'logs'), roots.dockerContainers, roots.kubeContainers, roots.kubePods]
}

/** The app names of pm2's log file names, sorted, once each. */
export function pm2Apps(entries: readonly string[]): string[] {
  const apps = new Set<string>()
  for (const entry of entries) {
    const app = PM2_FILE.exec(entry)?.[1]
    if (app !== undefined && !app.includes('__')) apps.add(app)
  }
  return [...apps].sort()
}

function pm2Sources(dir: string, entries: readonly string[]): DetectedSource[] {
  const apps = pm2Apps(entries)
  const rotated = ['*__*']
  const perApp = apps.length > 0 && apps.length <= MAX_PM2_APPS && apps.every((app) => CONFIG_NAME.test(app))
  if (!perApp) {
    const reason =
      apps.length === 0
        ? `pm2's log directory (no app logs yet)`
        : `pm2's log directory (${apps.length} apps: ${apps.slice(0, 5).join(', ')}${apps.length > 5 ? ', ...' : ''})`
    return [{ name: 'pm2', kind: 'pm2', paths: [join(dir, '*.log')], exclude: rotated, format: 'auto', reason }]
  }
  return apps.map((app) => ({
    name: `pm2-${app}`,
    kind: 'pm2',
    paths: [join(dir, `${app}-{out,error}.log`), join(dir, `${app}-{out,error}-[0-9]*.log`)],
    exclude: [],
    format: 'auto',
    reason: `pm2 app ${app} (its -out and -error logs)`,
  }))
}

export function detectSources(
  env: Readonly<Record<string, string | undefined>>,
  roots: MachineRoots,
  facts: MachineFacts,
): DetectedSource[] {
  const found: DetectedSource[] = []
  const pm2Dir = pm2LogDir(env, roots)
  const pm2Entries = facts.listings.get(pm2Dir)
  if (pm2Entries !== undefined) found.push(...pm2Sources(pm2Dir, pm2Entries))
  const appLogs = (reason: string): DetectedSource => ({
    name: 'app',
    kind: 'logs',
    paths: ['./logs/*.log'],
    exclude: [],
    format: 'auto',
    reason,
  })
  if (facts.listings.has(join(roots.cwd, 'logs'))) found.push(appLogs('./logs in the working directory'))
  if (facts.listings.has(roots.dockerContainers)) {
    const paths = [join(roots.dockerContainers, '*', '*-json.log')]
    const reason = "Docker's container logs (json-file driver)"
    found.push({ name: 'docker', kind: 'docker', paths, exclude: [], format: 'docker', reason })
  }
  const kubeDir = facts.listings.has(roots.kubeContainers)
    ? { paths: [join(roots.kubeContainers, '*.log')], exclude: [], where: roots.kubeContainers }
    : facts.listings.has(roots.kubePods)
      ? { paths: [join(roots.kubePods, '*', '*', '*.log*')], exclude: ['*.gz'], where: roots.kubePods }
      : undefined
  if (kubeDir !== undefined) {
    const reason = `Kubernetes' container logs (${kubeDir.where})`
    const { paths, exclude } = kubeDir
    found.push({ name: 'kubernetes', kind: 'kubernetes', paths, exclude, format: 'cri', reason })
  }
  if (found.length === 0) found.push(appLogs('nothing else found: ./logs, read once files appear there'))
  if (facts.hasJournalctl) {
    const reason = 'journalctl is installed: the systemd journal, errors and worse'
    found.push({ name: 'journal', kind: 'journald', paths: [], exclude: [], format: undefined, reason })
  }
  return found
}
