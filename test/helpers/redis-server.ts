// A real redis-server for a test suite: its own port (free, or given), its own temporary directory, no
// persistence. Started and restarted on the same port; ready when it says "Ready to accept
// connections" (no sleeps). Where redis-server is not installed, describeWithRedis skips the suite and
// says so in one loud line (CI installs it: .ci/run).
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { describe } from 'vitest'

function findRedisServer(): string | undefined {
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(delimiter).filter((d) => d !== '')]
  for (const dir of dirs) {
    const path = join(dir, 'redis-server')
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      // Not here.
    }
  }
  return undefined
}

export const redisServerPath: string | undefined = findRedisServer()

export function describeWithRedis(name: string, fn: () => void): void {
  if (redisServerPath === undefined) {
    console.warn(
      `\n!!! SKIPPED "${name}": redis-server is not installed (apt-get install redis-server); CI runs these suites !!!\n`,
    )
    describe.skip(name, fn)
    return
  }
  describe(name, fn)
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

function freePort(): Promise<number> {
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

/** Spawns redis-server and resolves once it accepts connections; rejects with its output if it exits first. */
function launch(args: string[]): Promise<ChildProcess> {
  if (redisServerPath === undefined) return Promise.reject(new Error('redis-server is not installed'))
  const child = spawn(redisServerPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData)
        // Keep draining, or a chatty server would block on a full pipe.
        child.stdout?.resume()
        child.off('exit', onExit)
        resolve(child)
      }
    }
    const onExit = (code: number | null): void =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`))
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
    child.once('exit', onExit)
    child.once('error', reject)
  })
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'logx-redis-'))
  let port = options.port ?? (await freePort())
  let child: ChildProcess | undefined
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
  let current: ChildProcess = child
  const server: RedisServer = {
    port,
    url: `${options.tls === undefined ? 'redis' : 'rediss'}://127.0.0.1:${port}`,
    dir,
    pid: current.pid as number,
    async kill(signal = 'SIGKILL') {
      const done = exited(current)
      current.kill(signal)
      await done
    },
    async restart() {
      await server.kill('SIGKILL')
      current = await launch(argsFor(port, dir, options))
      server.pid = current.pid as number
    },
    async stop() {
      await server.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return server
}
