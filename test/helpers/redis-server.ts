// A real redis-server for a test suite: its own port (free, or given), its own temporary directory, no
// persistence. Started and restarted on the same port; ready when it says "Ready to accept
// connections" (no sleeps). Where redis-server is not installed, describeWithRedis skips the suite and
// says so in one loud line (CI installs it: .ci/run).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  describeWithProgram,
  findExecutable,
  freePort,
  pathCandidates,
  startServerProcess,
  type ServerProcess,
} from './server-process'

export const redisServerPath: string | undefined = findExecutable(pathCandidates('redis-server'))

export function describeWithRedis(name: string, fn: () => void): void {
  describeWithProgram({ path: redisServerPath, name: 'redis-server', aptPackage: 'redis-server' }, name, fn)
}

export interface RedisServer {
  port: number
  url: string
  dir: string
  pid: number
  /** Kills the server (default SIGKILL) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>
  /** Starts it again on the same port (after kill), empty: nothing is saved. */
  restart(): Promise<void>
  /** Stops it and removes its directory. */
  stop(): Promise<void>
}

export interface RedisServerOptions {
  port?: number
  /** ACL users with every right; the default user is then turned off. */
  users?: { name: string; password: string }[]
  requirePass?: string
  /** TLS only, with this certificate and key (PEM files); clients are not asked for one. */
  tls?: { certFile: string; keyFile: string }
}

function argsFor(port: number, dir: string, options: RedisServerOptions): string[] {
  const listen =
    options.tls === undefined
      ? ['--port', String(port)]
      : [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cert-file',
          options.tls.certFile,
          '--tls-key-file',
          options.tls.keyFile,
          '--tls-auth-clients',
          'no',
        ]
  const args = [...listen, '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no']
  if (options.users !== undefined && options.users.length > 0) {
    args.push('--user', 'default', 'off')
    for (const user of options.users) args.push('--user', user.name, 'on', `>${user.password}`, '~*', '&*', '+@all')
  }
  if (options.requirePass !== undefined) args.push('--requirepass', options.requirePass)
  return args
}

/** Starts redis-server and resolves once it accepts connections; rejects with its output if it exits first. */
function launch(args: string[]): Promise<ServerProcess> {
  if (redisServerPath === undefined) return Promise.reject(new Error('redis-server is not installed'))
  return startServerProcess({
    name: 'redis-server',
    path: redisServerPath,
    args,
    ready: /Ready to accept connections/,
  })
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'logx-redis-'))
  let port = options.port ?? (await freePort())
  let child: ServerProcess | undefined
  // A free port can be taken between the probe and the listen: try another (never for a given port).
  for (let attempt = 0; child === undefined; attempt++) {
    try {
      child = await launch(argsFor(port, dir, options))
    } catch (err) {
      if (options.port !== undefined || attempt >= 4 || !String(err).includes('Address already in use')) {
        rmSync(dir, { recursive: true, force: true })
        throw err
      }
      port = await freePort()
    }
  }
  let current: ServerProcess = child
  const server: RedisServer = {
    port,
    url: `${options.tls === undefined ? 'redis' : 'rediss'}://127.0.0.1:${port}`,
    dir,
    pid: current.pid,
    kill: (signal = 'SIGKILL') => current.stop(signal),
    async restart() {
      await server.kill('SIGKILL')
      current = await launch(argsFor(port, dir, options))
      server.pid = current.pid
    },
    async stop() {
      await server.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return server
}
