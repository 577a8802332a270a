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
import { createLinkTracker, type LinkTracker } from './link-tracker'
import { onConnectFailure, reconnectDelayMs } from './link-state'
import type { ClusterStatus } from './types'

/** The part of @redis/client's client this module uses (its own types are generic beyond need). */
export interface RedisClientLike {
  connect(): Promise<unknown>
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>
  multi(): { addCommand(args: readonly string[]): unknown; exec(): Promise<unknown[]> }
  duplicate(overrides?: Record<string, unknown>): RedisClientLike
  SUBSCRIBE(channel: string, listener: (message: string, channel: string) => void): Promise<void>
  on(event: string, listener: (...args: never[]) => void): unknown
  destroy(): void
  readonly isReady: boolean
}

interface RedisModule {
  createClient(options: Record<string, unknown>): RedisClientLike
  ErrorReply: new (...args: never[]) => Error
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
    `Redis refused the credentials (${word}): check cluster.redis.username and the password in the file ` +
      'cluster.redis.password_file (and the ' +
      "user's ACL: it needs keys ~<key_prefix>* and the commands the fleet runs)",
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
  /** Called on every transition to up (the first connect too): the work kept while Redis was out of reach. */
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

/** Where start() stands: the strategy ends a start that cannot connect yet, or fails it on a refusal. */
interface StartState {
  starting: boolean
  done: (() => void) | undefined
  fatal: ClusterError | undefined
}

function clientOptions(
  config: ClusterConfig,
  socket: Record<string, unknown>,
  reconnectStrategy: (retries: number, cause: unknown) => number | Error,
): Record<string, unknown> {
  return {
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
    socket: { ...socket, reconnectStrategy },
  }
}

function destroyQuietly(client: RedisClientLike): void {
  try {
    client.destroy()
  } catch {
    // Closed already (by the strategy, or by an earlier close).
  }
}

/** Connects; a refusal at start rejects (and closes the link), anything else resolves degraded. */
function startClient(client: RedisClientLike, start: StartState, tracker: LinkTracker): Promise<void> {
  start.starting = true
  return new Promise<void>((resolve, reject) => {
    start.done = resolve
    client.connect().then(
      () => {
        start.starting = false
        tracker.up()
        resolve()
      },
      (err: unknown) => {
        start.starting = false
        tracker.close()
        destroyQuietly(client)
        reject(start.fatal ?? err)
      },
    )
  })
}

type LinkCalls = Pick<RedisLink, 'command' | 'multi' | 'script'>

/** The calls on the link: each bounded by the timeout; a failure to reach Redis marks the link down. */
function linkCalls(client: RedisClientLike, timeoutMs: number, tracker: LinkTracker): LinkCalls {
  function failed(err: unknown): never {
    if (!isErrorReply(err)) tracker.down(reasonOf(err))
    throw err
  }
  function succeeded<T>(value: T): T {
    if (client.isReady) tracker.up()
    return value
  }
  async function command(args: readonly string[], ms = timeoutMs): Promise<unknown> {
    try {
      return succeeded(await withTimeout(client.sendCommand(args), ms))
    } catch (err) {
      return failed(err)
    }
  }
  return {
    command,
    async multi(commands) {
      try {
        const multi = client.multi()
        for (const args of commands) multi.addCommand(args)
        return succeeded(await withTimeout(multi.exec(), timeoutMs))
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
  }
}

export function createRedisLink(config: ClusterConfig, options: RedisLinkOptions = {}): RedisLink {
  const tracker = createLinkTracker(options.now ?? Date.now, options.onStatus)
  const start: StartState = { starting: false, done: undefined, fatal: undefined }
  let closed = false
  const socket = socketOptions(config)

  function reconnectStrategy(retries: number, cause: unknown): number | Error {
    const answer = onConnectFailure(start.starting, isAuthError(cause), retries)
    if (answer.kind === 'fatal') {
      start.fatal = authError(cause)
      return start.fatal
    }
    tracker.down(reasonOf(cause))
    if (answer.endStart) {
      // Unreachable at start is not fatal: start degraded, keep trying.
      start.starting = false
      start.done?.()
    }
    return answer.delayMs
  }

  const client = loadRedis().createClient(clientOptions(config, socket, reconnectStrategy))
  // Without a listener an 'error' event would throw; the strategy above has seen each one already.
  client.on('error', (err: unknown) => {
    if (!start.starting) tracker.down(reasonOf(err))
  })
  client.on('ready', () => tracker.up())

  return {
    client,
    counters: tracker.counters,
    start: () => startClient(client, start, tracker),
    status: () => tracker.status(),
    // The socket, not the status: after a command timed out (degraded) the next command is the probe
    // whose success brings the status back up.
    isUp: () => client.isReady,
    ...linkCalls(client, config.commandTimeoutMs, tracker),
    duplicate(name) {
      return client.duplicate({
        name: `logx-${config.agentId}-${name}`,
        socket: { ...socket, reconnectStrategy: (retries: number) => reconnectDelayMs(retries) },
      })
    },
    onUp: (handler) => tracker.onUp(handler),
    close() {
      if (closed) return
      closed = true
      tracker.close()
      destroyQuietly(client)
    },
  }
}
