// The running intake sources of one agent: HTTP sources share a listener per address (routing by
// path), a stream source (syslog) listens itself; all hand their events to one sink. A source starts
// and stops on its own (a reload changes one without touching the others on its address).
import type { IntakeSourceConfig } from '../config/types'
import { IntakeError, IntakeErrorCodes } from './errors'
import { createIntakeCounters, type IntakeCounts } from './intake-counters'
import { intakeKindOf } from './intake-kinds'
import { startHttpListener, type HttpListener } from './http-listener'
import { createRateLimiter } from './rate-limit'
import type { HttpIntakeFactory, IntakeLog, IntakeSink } from './types'

/** One intake source as the daemon runs it. */
export interface RunningIntake {
  readonly name: string
  /** Where it takes events, for the start banner (`http://127.0.0.1:8080/ingest/api`). */
  readonly urls: readonly string[]
  counts(): IntakeCounts
  close(): Promise<void>
}

export interface IntakeHost {
  /** Starts a source; rejects with an IntakeError (LISTEN) when it cannot listen or its type is not built in. */
  start(source: IntakeSourceConfig): Promise<RunningIntake>
}

export interface IntakeHostOptions {
  sink: IntakeSink
  log: IntakeLog
  now: () => number
}

const addressKey = (source: IntakeSourceConfig): string =>
  `${source.intake.tls === undefined ? 'http' : 'https'} ${source.intake.listen.host} ${source.intake.listen.port}`

export function createIntakeHost(options: IntakeHostOptions): IntakeHost {
  const { sink, log, now } = options
  // Port 0 asks for a port of its own: such a source never shares a listener.
  const listeners = new Map<string, Promise<HttpListener>>()
  let anonymous = 0

  async function listenerFor(source: IntakeSourceConfig): Promise<{ key: string; listener: HttpListener }> {
    const key = source.intake.listen.port === 0 ? `any ${anonymous++}` : addressKey(source)
    let pending = listeners.get(key)
    if (pending === undefined) {
      pending = startHttpListener({ config: source, sink, log, now })
      listeners.set(key, pending)
      pending.catch(() => listeners.delete(key))
    }
    return { key, listener: await pending }
  }

  async function startHttp(source: IntakeSourceConfig, create: HttpIntakeFactory): Promise<RunningIntake> {
    const counters = createIntakeCounters()
    const handler = create(source)
    const { key, listener } = await listenerFor(source)
    listener.add({ config: source, handler, limiter: createRateLimiter(source.intake.rateLimit), counters })
    return {
      name: source.name,
      urls: handler.paths.map((path) => `${listener.origin}${path}`),
      counts: () => counters.counts(),
      async close() {
        if (!listener.remove(source.name)) return
        listeners.delete(key)
        await listener.close()
      },
    }
  }

  return {
    async start(source) {
      const kind = await intakeKindOf(source.type)
      if (kind === undefined)
        throw new IntakeError(IntakeErrorCodes.LISTEN, `sources ${source.name}: type ${source.type} is not built in`)
      if (kind.kind === 'http') return startHttp(source, kind.create)
      const counters = createIntakeCounters()
      const running = await kind.start({ source, sink, log, metrics: counters })
      return { name: source.name, urls: running.urls, counts: () => counters.counts(), close: () => running.close() }
    },
  }
}
