// `/metrics` (Prometheus text format 0.0.4) and `/health` on `metrics.listen`. The values are read
// when scraped, from the components that own them; nothing here counts. With a console handler
// (agent/daemon/console), every other path is the console's: its page and its /api. On loopback,
// `/metrics` and `/health` answer only to a Host header naming loopback and their port, as the console
// does: a page whose name was re-pointed at 127.0.0.1 (DNS rebinding) reads neither.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ListenAddress } from '../config/types'
import { hostHeaderAllowed, isLoopbackHost } from '../loopback-host'
import type { ConsoleHandler } from './console'
import { pathOf } from './console/paths'
import { DaemonError, DaemonErrorCodes } from './errors'

export interface Metric {
  name: string
  help: string
  type: 'counter' | 'gauge'
  samples: { labels?: Record<string, string>; value: number }[]
}

export interface MetricsServer {
  readonly url: string
  close(): Promise<void>
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')
}

export function renderMetrics(metrics: readonly Metric[]): string {
  const out: string[] = []
  for (const m of metrics) {
    out.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`)
    for (const s of m.samples) {
      const labels =
        s.labels === undefined
          ? ''
          : `{${Object.entries(s.labels)
              .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
              .join(',')}}`
      out.push(`${m.name}${labels} ${Number.isFinite(s.value) ? s.value : 0}`)
    }
  }
  return `${out.join('\n')}\n`
}

export async function startMetricsServer(
  listen: ListenAddress,
  collect: () => Metric[],
  health: () => { ok: boolean; [key: string]: unknown },
  consoleHandler?: ConsoleHandler,
): Promise<MetricsServer> {
  const loopback = isLoopbackHost(listen.host)
  const server: Server = createServer((req, res) => {
    // The raw target, not `new URL(...)`, which throws on `//` (an exception here would end the agent).
    const path = pathOf(req.url ?? '/')
    if (consoleHandler !== undefined && path !== '/metrics' && path !== '/health') {
      consoleHandler(req, res)
      return
    }
    if (loopback && !hostHeaderAllowed(req.headers.host, req.socket.localPort ?? 0)) {
      res
        .writeHead(403, { 'content-type': 'text/plain' })
        .end('host: answered only to 127.0.0.1, localhost or [::1] with its port\n')
      return
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(renderMetrics(collect()))
      return
    }
    if (path === '/health') {
      const body = health()
      res.writeHead(body.ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      return
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics or /health\n')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) =>
      reject(
        new DaemonError(
          DaemonErrorCodes.LISTEN,
          `metrics: cannot listen on ${listen.host}:${listen.port}: ${err.message}`,
          { cause: err },
        ),
      ),
    )
    server.listen(listen.port, listen.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
