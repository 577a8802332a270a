// A real Alertmanager (Debian's prometheus-alertmanager) for the intake's suites and drill: its own
// port and storage directory, HA gossip off, one route to a webhook receiver (the agent), ready when
// /-/ready answers. Where the binary is not installed, describeWithAlertmanager skips the suite and
// says so in one loud line (CI installs it: .ci/run).
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe } from 'vitest'
import { pollUntil } from '../../helpers/poll-until'

function findAlertmanager(): string | undefined {
  for (const path of ['/usr/bin/prometheus-alertmanager', '/usr/local/bin/alertmanager']) {
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      // Not here.
    }
  }
  return undefined
}

export const alertmanagerPath: string | undefined = findAlertmanager()

export function describeWithAlertmanager(name: string, fn: () => void): void {
  if (alertmanagerPath === undefined) {
    console.warn(
      `\n!!! SKIPPED "${name}": Alertmanager is not installed (apt-get install prometheus-alertmanager); ` +
        'CI runs this suite !!!\n',
    )
    describe.skip(name, fn)
    return
  }
  describe(name, fn)
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

export interface AlertmanagerOptions {
  /** Its config and storage go here (the caller's temp dir: suiteTempDir or tempDir). */
  dir: string
  /** Where its webhook receiver posts: each URL is one webhook_config of the receiver. */
  webhooks: string[]
  /** Its route's group_wait and group_interval (Alertmanager durations); small, for tests. */
  groupWait?: string
  groupInterval?: string
  repeatInterval?: string
}

export interface AlertToPost {
  labels: Record<string, string>
  annotations?: Record<string, string>
  generatorURL?: string
  /** RFC 3339; an endsAt in the past resolves the alert. */
  startsAt?: string
  endsAt?: string
}

export interface RunningAlertmanager {
  url: string
  /** POST /api/v2/alerts, as Prometheus sends them. */
  postAlerts(alerts: readonly AlertToPost[]): Promise<void>
  output(): string
  stop(): Promise<void>
}

function configYaml(options: AlertmanagerOptions): string {
  const hooks = options.webhooks.map((url) => `      - url: ${JSON.stringify(url)}\n        send_resolved: true\n`)
  return `route:
  receiver: logx
  group_by: [alertname]
  group_wait: ${options.groupWait ?? '100ms'}
  group_interval: ${options.groupInterval ?? '1s'}
  repeat_interval: ${options.repeatInterval ?? '1h'}
receivers:
  - name: logx
    webhook_configs:
${hooks.join('')}`
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

export async function startAlertmanager(options: AlertmanagerOptions): Promise<RunningAlertmanager> {
  if (alertmanagerPath === undefined) throw new Error('Alertmanager is not installed')
  const dir = options.dir
  const config = join(dir, 'alertmanager.yml')
  writeFileSync(config, configYaml(options))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const args = [
    `--config.file=${config}`,
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    // An empty address turns the HA gossip off: a test's Alertmanager is alone.
    '--cluster.listen-address=',
  ]
  const child = spawn(alertmanagerPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  await pollUntil(`Alertmanager ready on ${url}`, async () => {
    if (child.exitCode !== null) throw new Error(`Alertmanager exited (${child.exitCode}):\n${output}`)
    return (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok === true
  })
  return {
    url,
    async postAlerts(alerts) {
      const response = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      })
      if (!response.ok) throw new Error(`Alertmanager refused the alerts: ${response.status} ${await response.text()}`)
    },
    output: () => output,
    async stop() {
      child.kill('SIGTERM')
      await exited(child)
    },
  }
}
