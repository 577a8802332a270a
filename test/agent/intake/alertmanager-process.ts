// A real Alertmanager (Debian's prometheus-alertmanager) for the intake's suites and drill: its own
// port and storage directory, HA gossip off, one route to a webhook receiver (the agent), ready when
// /-/ready answers. Where the binary is not installed, describeWithAlertmanager skips the suite and
// says so in one loud line (CI installs it: .ci/run).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describeWithProgram, findExecutable, freePort, startServerProcess } from '../../helpers/server-process'

// The intake's suites take their ports from here too.
export { freePort }

export const alertmanagerPath: string | undefined = findExecutable([
  '/usr/bin/prometheus-alertmanager',
  '/usr/local/bin/alertmanager',
])

export function describeWithAlertmanager(name: string, fn: () => void): void {
  const program = { path: alertmanagerPath, name: 'Alertmanager', aptPackage: 'prometheus-alertmanager' }
  describeWithProgram(program, name, fn)
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
  const server = await startServerProcess({
    name: 'Alertmanager',
    path: alertmanagerPath,
    args,
    ready: async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok === true,
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
    output: server.output,
    stop: () => server.stop('SIGTERM'),
  }
}
