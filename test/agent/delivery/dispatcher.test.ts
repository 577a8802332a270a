// The dispatcher with what it is handed: an outbox in memory and a messaging client that records its
// calls, no server. The outbox is the one retry layer: every attempt is one client call, under the
// same key each time, and the dispatcher only counts and reports.
import { expect, it } from 'vitest'
import { createAlertEngine } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import { engineOptionsOfSetup, setupOfConfig } from '../../../agent/delivery/alert-setup'
import { createDispatcher, outboxReports } from '../../../agent/delivery/dispatcher'
import { toAlertLine } from '../../../agent/events/alert-line'
import { MessagingApiError, MessagingErrorCodes, type MessagingClient } from '../../../agent/messaging'
import { createOutbox } from '../../../agent/outbox'

function recordingClient(failures: number): { client: MessagingClient; calls: string[]; closed: () => boolean } {
  const calls: string[] = []
  let closed = false
  let left = failures
  const client = {
    sendSms(_request: unknown, options: { idempotencyKey: string }) {
      calls.push(options.idempotencyKey)
      if (left-- > 0) {
        return Promise.reject(new MessagingApiError(MessagingErrorCodes.SERVER, 'HTTP 503', { recoverable: true }))
      }
      return Promise.resolve({ id: 'm1', status: 'queued', body: {} })
    },
    close() {
      closed = true
      return Promise.resolve()
    },
  }
  return { client: client as unknown as MessagingClient, calls, closed: () => closed }
}

it('sends through the client it is handed, one call per outbox attempt under one key; closes what it was handed', async () => {
  const result = parseAgentConfig(
    'sources: [{ name: app, paths: ./x.log }]\nchannels: { oncall: { type: sms, numbers: [919800000001] } }\n',
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  const setup = setupOfConfig(result.config, [])
  const engine = createAlertEngine(engineOptionsOfSetup(setup, 0))
  const warnings: string[] = []
  const log = { info() {}, warn: (_fields: unknown, message: string) => void warnings.push(message), error() {} }
  const outbox = createOutbox({ backoff: { minDelayMs: 1, maxDelayMs: 2 }, ...outboxReports(log) })
  const { client, calls, closed } = recordingClient(2)
  const dispatcher = createDispatcher({ outbox, client, recorder: undefined, channels: setup.channels, log })

  const line = toAlertLine(JSON.stringify({ level: 50, msg: 'db down' }), 'json', 'app').line
  dispatcher.dispatch(engine.ingest(line, Date.now()), new Set())
  expect(await dispatcher.drain(5000)).toEqual({ drained: true, pending: 0 })

  expect(calls).toHaveLength(3)
  expect(new Set(calls).size).toBe(1)
  expect(dispatcher.stats()).toMatchObject({ sent: { sms: 1 }, failed: { sms: 2 }, retried: 2, dead: 0, depth: 0 })
  expect(warnings).toEqual(['notification failed: HTTP 503', 'notification failed: HTTP 503'])
  await dispatcher.close()
  expect(closed()).toBe(true)
})
