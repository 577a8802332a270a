// Acks, unacks, resolves by hand and run-time silences, shared through the stream `P actions`.
// Publishing writes the entry and the state it changes (the incident's status/ack, the silences hash)
// in one MULTI; while Redis is down the actions wait here, in order, and go out on reconnect. Reading
// is a blocking XREAD on a connection of its own, from the last id read: a reconnect reads what came
// meanwhile. This agent's own entries are skipped (its pipeline applied them when it made them).
import { randomUUID } from 'node:crypto'
import { decodeAction, encodeAction } from './action-codec'
import type { ReceivedAction, SharedAction } from './types'
import { INCIDENT_RETENTION_MS, MAX_ACTIONS, type Keys } from './keys'
import { isErrorReply, withTimeout, type RedisClientLike, type RedisLink } from './redis-connection'
import type { DeliveryLog } from '../delivery/types'

/** Actions kept while Redis is down; past this the oldest are dropped (and logged). */
export const MAX_PENDING_ACTIONS = 1_000
const BLOCK_MS = 2_000

// A resolve (by hand or by the alert's sender) closes the incident's generation (as a won resolved claim does).
const CLOSE_GENERATION = `
local gen = redis.call('HGET', KEYS[1], 'gen')
if gen then redis.call('HSET', KEYS[1], 'pgen', gen) end
redis.call('HDEL', KEYS[1], 'gen', 'status', 'ack')
return 1
`

/** The MULTI of one action: the stream entry, then the state it changes (pure). */
export function actionCommands(keys: Keys, action: SharedAction, id: string, agentId: string): string[][] {
  const commands = [
    ['XADD', keys.actions, 'MAXLEN', '~', String(MAX_ACTIONS), '*', ...encodeAction(action, id, agentId)],
  ]
  switch (action.type) {
    case 'ack': {
      const inc = keys.incident(action.key)
      const ack = JSON.stringify({
        by: action.actor.by,
        via: action.actor.via,
        at: action.at,
        detail: action.actor.detail,
      })
      commands.push(
        ['HSET', inc, 'status', 'acknowledged', 'ack', ack],
        ['PEXPIRE', inc, String(INCIDENT_RETENTION_MS)],
      )
      break
    }
    case 'unack': {
      const inc = keys.incident(action.key)
      commands.push(
        ['HSET', inc, 'status', 'firing'],
        ['HDEL', inc, 'ack'],
        ['PEXPIRE', inc, String(INCIDENT_RETENTION_MS)],
      )
      break
    }
    case 'resolve':
    case 'source-resolve':
      commands.push(['EVAL', CLOSE_GENERATION, '1', keys.incident(action.key)])
      break
    case 'silence':
      commands.push(['HSET', keys.silences, action.silence.id, JSON.stringify(action.silence)])
      break
    case 'expire-silence':
      commands.push(['HDEL', keys.silences, action.silenceId])
      break
  }
  return commands
}

export interface ActionPublisher {
  publish(action: SharedAction & { id?: string }): Promise<void>
  /** Sends what waited while Redis was down (on reconnect). */
  resend(): Promise<void>
  readonly pending: number
}

export function createActionPublisher(options: {
  link: RedisLink
  keys: Keys
  agentId: string
  log: DeliveryLog
}): ActionPublisher {
  const { link, keys, agentId, log } = options
  const waiting: { action: SharedAction; id: string }[] = []
  let sending: Promise<void> | undefined

  async function send(): Promise<void> {
    while (waiting.length > 0 && link.isUp()) {
      const next = waiting[0] as { action: SharedAction; id: string }
      try {
        await link.multi(actionCommands(keys, next.action, next.id, agentId))
      } catch (err) {
        if (!isErrorReply(err)) return
        log.error(
          { code: 'LOGX_CLUSTER_ERR_PROTOCOL', type: next.action.type, err: (err as Error).message },
          'cluster: Redis refused a shared action; it is dropped',
        )
      }
      waiting.shift()
    }
  }

  function resend(): Promise<void> {
    sending ??= send().finally(() => {
      sending = undefined
    })
    return sending
  }

  return {
    async publish(input) {
      const { id = randomUUID(), ...action } = input
      waiting.push({ action: action as SharedAction, id })
      if (waiting.length > MAX_PENDING_ACTIONS) {
        const lost = waiting.shift()
        log.warn(
          { type: lost?.action.type, id: lost?.id },
          'cluster: too many actions waiting for Redis; the oldest is dropped',
        )
      }
      // Behind anything still waiting, so the fleet sees them in the order they were made.
      try {
        await resend()
        if (waiting.some((w) => w.id === id)) await resend()
      } catch {
        // publish never rejects: what could not go out waits for the reconnect.
      }
    },
    resend,
    get pending() {
      return waiting.length
    },
  }
}

export interface ActionReader {
  onAction(handler: (action: ReceivedAction) => void): void
  /**
   * Reads from where the stream ends now (read on the main connection when it is up, so an action
   * published after start() resolves is never skipped), or from the first connect's end.
   */
  start(): Promise<void>
  close(): void
  /** The last stream id read ('0-0' before any; undefined until the first connect). */
  readonly lastId: string | undefined
}

/** The entries of an XREAD (RESP2) answer: [[stream, [[id, [field, value, ...]], ...]]]. */
export function streamEntries(reply: unknown): { id: string; fields: string[] }[] {
  if (!Array.isArray(reply)) return []
  const entries: { id: string; fields: string[] }[] = []
  for (const stream of reply) {
    const list: unknown = Array.isArray(stream) ? stream[1] : undefined
    if (!Array.isArray(list)) continue
    for (const entry of list) {
      if (Array.isArray(entry) && Array.isArray(entry[1]))
        entries.push({ id: String(entry[0]), fields: entry[1].map(String) })
    }
  }
  return entries
}

export function createActionReader(options: {
  link: RedisLink
  keys: Keys
  agentId: string
  commandTimeoutMs: number
  log: DeliveryLog
}): ActionReader {
  const { link, keys, agentId, log } = options
  const handlers: ((action: ReceivedAction) => void)[] = []
  let reader: RedisClientLike | undefined
  let lastId: string | undefined
  let closed = false
  let wake: (() => void) | undefined

  /** Where the stream ends now (`$`, kept as an id so a retry does not skip what came since). */
  async function streamEnd(send: (args: string[]) => Promise<unknown>): Promise<string> {
    const tail = await send(['XREVRANGE', keys.actions, '+', '-', 'COUNT', '1'])
    return streamEntries([[keys.actions, tail]])[0]?.id ?? '0-0'
  }

  function waitForReady(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 500)
      timer.unref()
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }

  function deliver(id: string, fields: string[]): void {
    const action = decodeAction(fields)
    if (action === undefined) {
      log.warn(
        { code: 'LOGX_CLUSTER_ERR_PROTOCOL', streamId: id },
        'cluster: skipped an entry of the action stream that is not an action',
      )
      return
    }
    if (action.agent === agentId) return
    for (const handler of handlers) {
      try {
        handler(action)
      } catch (err) {
        log.error({ err: (err as Error).message, type: action.type }, 'cluster: a shared action handler failed')
      }
    }
  }

  async function loop(client: RedisClientLike): Promise<void> {
    while (!closed) {
      if (!client.isReady) {
        await waitForReady()
        continue
      }
      try {
        lastId ??= await streamEnd((args) => withTimeout(client.sendCommand(args), options.commandTimeoutMs))
        const read = ['XREAD', 'COUNT', '100', 'BLOCK', String(BLOCK_MS), 'STREAMS', keys.actions, lastId]
        const reply = await withTimeout(client.sendCommand(read), BLOCK_MS + options.commandTimeoutMs)
        for (const entry of streamEntries(reply)) {
          lastId = entry.id
          deliver(entry.id, entry.fields)
        }
      } catch {
        // Dropped or timed out: wait for the connection, then read on from lastId.
        if (!closed) await waitForReady()
      }
    }
  }

  return {
    onAction(handler) {
      handlers.push(handler)
    },
    async start() {
      if (reader !== undefined || closed) return
      if (link.isUp()) lastId = await streamEnd((args) => link.command(args)).catch(() => undefined)
      const client = link.duplicate('actions')
      reader = client
      client.on('error', () => undefined)
      client.on('ready', () => wake?.())
      client.connect().catch(() => undefined)
      void loop(client)
    },
    close() {
      closed = true
      wake?.()
      try {
        reader?.destroy()
      } catch {
        // Already closed.
      }
    },
    get lastId() {
      return lastId
    },
  }
}
