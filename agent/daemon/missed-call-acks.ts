// Acknowledgement by missed call, wired: the poller of agent/delivery reads the messaging API's
// missed calls, the people of the config say whose number called, and the alert path's incident
// actions acknowledge. A reload brings new people and settings; the poller restarts only when how
// it polls changed. Without people there is nobody a call could come from, and nothing polls.
import { join } from 'node:path'
import type { AgentConfig } from '../config/types'
import type { AlertPath } from '../acknowledge/with-actions'
import type { DeliveryLog } from '../delivery/types'
import { createMissedCallPoller, type MissedCallPoller } from '../acknowledge/missed-calls'
import { createPhoneBook } from '../acknowledge/phone-book'
import { createMessagingClient, type MessagingClient } from '../messaging'

export interface MissedCallAcks {
  apply(config: AgentConfig): Promise<void>
  /** The poller's counters, when it runs. */
  stats(): ReturnType<MissedCallPoller['stats']> | undefined
  /** Polls now (tests and drills: no waiting for the interval). */
  pollNow(): Promise<void>
  stop(): Promise<void>
}

export interface MissedCallAcksOptions {
  path: AlertPath
  api: { baseUrl: string; apiKey: string }
  stateDir: string
  timeoutMs: number | undefined
  log: DeliveryLog
  now: () => number
}

const pollingOf = (config: AgentConfig): string =>
  config.people.some((p) => p.phone !== undefined)
    ? JSON.stringify([config.acknowledge.pollIntervalMs, config.acknowledge.missedCallNumber])
    : ''

export function startMissedCallAcks(initial: AgentConfig, options: MissedCallAcksOptions): MissedCallAcks {
  const { path, log, now } = options
  let client: MessagingClient | undefined
  let poller: MissedCallPoller | undefined
  let polling = ''

  function callers(config: AgentConfig): void {
    const book = createPhoneBook(config.people)
    path.actions.setCallers((caller) => book.personOf(caller), config.acknowledge.ackAll)
  }

  function start(config: AgentConfig): void {
    polling = pollingOf(config)
    if (polling === '') return
    client ??= createMessagingClient({
      baseUrl: options.api.baseUrl,
      apiKey: options.api.apiKey,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    })
    poller = createMissedCallPoller({
      client,
      statePath: join(options.stateDir, 'missed-calls.json'),
      intervalMs: config.acknowledge.pollIntervalMs,
      calledNumber: config.acknowledge.missedCallNumber,
      onCalls: (calls) => path.actions.missedCalls(calls, now()),
      log,
      now,
    })
    poller.start()
  }

  callers(initial)
  start(initial)

  return {
    async apply(config) {
      callers(config)
      if (pollingOf(config) === polling) return
      await poller?.stop()
      poller = undefined
      start(config)
    },
    stats: () => poller?.stats(),
    async pollNow() {
      await poller?.pollNow()
    },
    async stop() {
      await poller?.stop()
      poller = undefined
      await client?.close().catch(() => {})
    },
  }
}
