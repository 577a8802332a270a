// One connection to Redis from the normalized config, and whether it is up. The client is required
// here, lazily, so an agent without `cluster:` never loads it. It never queues offline
// (disableOfflineQueue): a command while down fails at once, which is what lets the fleet fail open.
// Commands time out after commandTimeoutMs (withTimeout: one timer each, not the client's per-command
// AbortSignal, whose weak timers cost more in GC than the command itself); the queue of commands not
// answered yet is bounded (a full one fails at once, as a down Redis does); the socket reconnects
// with capped backoff forever.
// At start a refused user or password is fatal (a ClusterError naming the keys, never the value);
// any other failure starts degraded and keeps trying. The password is revealed only into the client.
import { createHash } from 'node:crypto'
import type { ClusterConfig } from '../config/types'
import { ClusterError, ClusterErrorCodes } from './errors'
import type { ClusterStatus } from './index'

/** The part of @redis/client's client this module uses (its own types are generic beyond need). */
export interface RedisClientLike {
  connect(): Promise<unknown>
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>
  multi(): { addCommand(args: readonly string[]): unknown; exec(): Promise<unknown[]> }
  duplicate(overrides?: Record<string, unknown>): RedisClientLike
  SUBSCRIBE(channel: string, listener: (message: string, channel: string) => void): Promise<void>
  on(event: string, listener: (...args: any[]) => void): unknown
  destroy(): void
  readonly isReady: boolean
}

interface RedisModule {
  createClient(options: Record<string, unknown>): RedisClientLike
  ErrorReply: new (...args: any[]) => Error
}

let redisModule: RedisModule | undefined
function loadRedis(): RedisModule {
  // Lazy: the client costs start-up time and only fleet agents need it.
  redisModule ??= require('@redis/client') as RedisModule
  return redisModule
}

/** An answer Redis gave with an error (as opposed to not answering). */
export function isErrorReply(err: unknown): boolean {
  return err instanceof loadRedis().ErrorReply
}

const AUTH_REPLY = /^(WRONGPASS|NOAUTH|NOPERM)\b/

export const isAuthError = (err: unknown): boolean => isErrorReply(err) && AUTH_REPLY.test((err as Error).message)

function authError(cause: unknown): ClusterError {
  const word = AUTH_REPLY.exec((cause as Error).message)?.[1] ?? 'refused'
  return new ClusterError(
    ClusterErrorCodes.AUTH,
    `Redis refused the credentials (${word}): check cluster.redis.username and the password in the file cluster.redis.password_file (and the user's ACL: it needs keys ~<key_prefix>* and the commands the fleet runs)`,
    { cause },
  )
}

/** Why Redis is not usable, for /health and the log: the client's words, which never hold the password. */
export function reasonOf(err: unknown): string {
  if (isAuthError(err)) return `Redis refused the credentials: ${(err as Error).message}`
  const message = err instanceof Error ? err.message : String(err)
  return `Redis unreachable: ${message}`
}

/** Commands written or waiting to be, not answered yet: past this a command fails at once (fail open). */
export const MAX_QUEUED_COMMANDS = 10_000

/** Capped exponential backoff of reconnects: 50 ms, doubling, at most 2 s. */
export const reconnectDelayMs = (retries: number): number => Math.min(50 * 2 ** Math.min(retries, 10), 2_000)

/** A Lua script run by EVALSHA, with EVAL when the server does not have it (restarted, flushed). */
export interface LuaScript {
  readonly source: string
  readonly sha: string
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') }
}

/**
 * The answer, or a rejection after `ms`. The client's own command timeout covers only the time a
 * command waits to be written, not the wait for its answer (a Redis that stopped answering, SIGSTOP,
 * a dead host without a reset): this covers both. A late answer is dropped.
 * The timer only rejects in the turn after it fires: when the agent's own event loop was busy past
 * the bound (a long catch-up read), an answer already waiting on the socket is read first and wins,
 * instead of a false timeout that would fail a claim open and page twice.
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  promise.catch(() => undefined)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${ms} ms`))), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

export interface RedisLink {
  readonly client: RedisClientLike
  start(): Promise<void>
  status(): ClusterStatus
  /** Connected (commands are tried); status() may still say degraded after a timeout. */
  isUp(): boolean
  /** One command; a failure to reach Redis marks the link degraded and rethrows. */
  command(args: readonly string[], timeoutMs?: number): Promise<unknown>
  /** One MULTI/EXEC round trip. */
  multi(commands: readonly (readonly string[])[]): Promise<unknown[]>
  script(script: LuaScript, keys: readonly string[], args: readonly string[]): Promise<unknown>
  /** A second connection (blocking reads), same options, its own reconnects; not connected yet. */
  duplicate(name: string): RedisClientLike
  /** Called on every transition to up after the first connect (reconnect work: merges, resends). */
  onUp(handler: () => void): void
  readonly counters: { degradedEpisodes: number; reconnects: number }
  close(): void
}

export interface RedisLinkOptions {
  onStatus?: (status: ClusterStatus) => void
  now?: () => number
}

function socketOptions(config: ClusterConfig): Record<string, unknown> {
  const tls = config.redis.tls
  const socket: Record<string, unknown> = { connectTimeout: Math.max(config.commandTimeoutMs, 1_000) }
  if (tls !== undefined) {
    socket.tls = true
    socket.rejectUnauthorized = tls.rejectUnauthorized
    if (tls.ca !== undefined) socket.ca = tls.ca
    if (tls.cert !== undefined) socket.cert = tls.cert
    if (tls.key !== undefined) socket.key = tls.key.reveal()
  }
  return socket
}

export function createRedisLink(config: ClusterConfig, options: RedisLinkOptions = {}): RedisLink {
  const now = options.now ?? Date.now
  const redis = loadRedis()
  let current: ClusterStatus = { status: 'degraded', reason: 'not connected yet', since: now() }
  let everUp = false
  /** A degraded episode counted and not yet over (the start's 'not connected yet' is not one). */
  let episodeOpen = false
  let starting = false
  let startDone: (() => void) | undefined
  let fatal: ClusterError | undefined
  let closed = false
  const upHandlers: (() => void)[] = []
  const counters = { degradedEpisodes: 0, reconnects: 0 }
  const socket = socketOptions(config)

  function setStatus(next: ClusterStatus): void {
    const changed = next.status !== current.status
    current = next
    // A new reason while still degraded updates status() without another report.
    if (!changed) return
    try {
      options.onStatus?.(next)
    } catch {
      // A listener's failure is its own.
    }
  }

  function markDown(reason: string): void {
    if (closed) return
    if (!episodeOpen) {
      episodeOpen = true
      counters.degradedEpisodes++
    }
    if (current.status === 'degraded' && current.reason === reason) return
    setStatus({ status: 'degraded', reason, since: current.status === 'degraded' ? current.since : now() })
  }

  function markUp(): void {
    if (closed || current.status === 'up') return
    episodeOpen = false
    const reconnect = everUp
    everUp = true
    setStatus({ status: 'up', reason: undefined, since: now() })
    if (reconnect) counters.reconnects++
    for (const handler of upHandlers) {
      try {
        handler()
      } catch {
        // Reconnect work reports its own failures.
      }
    }
  }

  const client = redis.createClient({
    url: config.redis.url,
    username: config.redis.username,
    password: config.redis.password?.reveal(),
    name: `logx-${config.agentId}`,
    RESP: 2,
    maintNotifications: 'disabled',
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
    // 0: no client timeout (its default is 5 s); withTimeout bounds every command.
    commandOptions: { timeout: 0 },
    socket: {
      ...socket,
      reconnectStrategy: (retries: number, cause: unknown): number | Error => {
        if (starting && isAuthError(cause)) {
          fatal = authError(cause)
          return fatal
        }
        markDown(reasonOf(cause))
        if (starting) {
          // Unreachable at start is not fatal: start degraded, keep trying.
          starting = false
          startDone?.()
        }
        return reconnectDelayMs(retries)
      },
    },
  })
  // Without a listener an 'error' event would throw; the strategy above has seen each one already.
  client.on('error', (err: unknown) => {
    if (!starting) markDown(reasonOf(err))
  })
  client.on('ready', () => markUp())

  function failed(err: unknown): never {
    if (!isErrorReply(err)) markDown(reasonOf(err))
    throw err
  }

  function succeeded<T>(value: T): T {
    if (client.isReady) markUp()
    return value
  }

  async function command(args: readonly string[], timeoutMs?: number): Promise<unknown> {
    try {
      const ms = timeoutMs ?? config.commandTimeoutMs
      return succeeded(await withTimeout(client.sendCommand(args), ms))
    } catch (err) {
      return failed(err)
    }
  }

  return {
    client,
    counters,
    start() {
      starting = true
      return new Promise<void>((resolve, reject) => {
        startDone = resolve
        client.connect().then(
          () => {
            starting = false
            markUp()
            resolve()
          },
          (err: unknown) => {
            starting = false
            closed = true
            try {
              client.destroy()
            } catch {
              // Closed by the strategy already.
            }
            reject(fatal ?? err)
          },
        )
      })
    },
    status: () => current,
    // The socket, not the status: after a command timed out (degraded) the next command is the probe
    // whose success brings the status back up.
    isUp: () => client.isReady,
    command,
    async multi(commands) {
      try {
        const multi = client.multi()
        for (const args of commands) multi.addCommand(args)
        return succeeded(await withTimeout(multi.exec(), config.commandTimeoutMs))
      } catch (err) {
        return failed(err)
      }
    },
    async script(script, keys, args) {
      try {
        return await command(['EVALSHA', script.sha, String(keys.length), ...keys, ...args])
      } catch (err) {
        if (!(isErrorReply(err) && (err as Error).message.startsWith('NOSCRIPT'))) throw err
        return command(['EVAL', script.source, String(keys.length), ...keys, ...args])
      }
    },
    duplicate(name) {
      return client.duplicate({
        name: `logx-${config.agentId}-${name}`,
        socket: { ...socket, reconnectStrategy: (retries: number) => reconnectDelayMs(retries) },
      })
    },
    onUp(handler) {
      upHandlers.push(handler)
    },
    close() {
      if (closed) return
      closed = true
      try {
        client.destroy()
      } catch {
        // Already closed.
      }
    },
  }
}
