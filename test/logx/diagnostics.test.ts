// diagnostics_channel tracing of line building: pino publishes `tracing:pino_asJson:*`, logx the same
// messages on `tracing:logx_asJson:*`, for APM tools that time or annotate log calls.
import { afterEach, describe, expect, it } from 'vitest'
import diagnosticsChannel from 'node:diagnostics_channel'
import { AsyncLocalStorage } from 'node:async_hooks'
import pino from 'pino'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const fixed = { timestamp: () => ',"time":1757512800000', base: { pid: 1, hostname: 'host' } }
type Message = { instance: unknown; arguments: unknown[]; result?: string; error?: unknown }

const subscriptions: Array<() => void> = []
afterEach(() => {
  for (const unsubscribe of subscriptions.splice(0)) unsubscribe()
})

/** Records every message of the tracing channel `name` (start, end, error). */
function record(name: string): Array<[string, Message]> {
  const seen: Array<[string, Message]> = []
  for (const event of ['start', 'end', 'error']) {
    const channel = `tracing:${name}:${event}`
    const handler = (message: unknown): void => {
      seen.push([event, message as Message])
    }
    diagnosticsChannel.subscribe(channel, handler)
    subscriptions.push(() => diagnosticsChannel.unsubscribe(channel, handler))
  }
  return seen
}

describe('tracing:logx_asJson', () => {
  it("start and end carry what pino's carry: the instance, the asJson arguments, then the line", () => {
    const pinoSeen = record('pino_asJson')
    const logxSeen = record('logx_asJson')
    const loggers = [pino, logx].map((factory) => (factory as any)(fixed, createSink()))
    for (const logger of loggers) logger.info('testing')
    for (const [seen, logger] of [
      [pinoSeen, loggers[0]],
      [logxSeen, loggers[1]],
    ] as const) {
      expect(seen.map(([event]) => event)).toEqual(['start', 'end'])
      const [[, start], [, end]] = seen as [[string, Message], [string, Message]]
      expect(start.instance).toBe(logger)
      expect(end).toBe(start)
    }
    const [pinoStart, logxStart] = [pinoSeen[0]![1], logxSeen[0]![1]]
    expect(Array.from(logxStart.arguments)).toEqual(Array.from(pinoStart.arguments))
    expect(Array.from(logxStart.arguments)).toEqual([{}, 'testing', 30, ',"time":1757512800000'])
    expect(logxStart.result).toBe(pinoStart.result)
    expect(logxStart.result).toBe('{"level":30,"time":1757512800000,"pid":1,"hostname":"host","msg":"testing"}\n')
  })

  it("subscribers run in the caller's async context", () => {
    const storage = new AsyncLocalStorage<{ request: string }>()
    const stores: unknown[] = []
    const handler = (): void => {
      stores.push(storage.getStore())
    }
    diagnosticsChannel.subscribe('tracing:logx_asJson:start', handler)
    subscriptions.push(() => diagnosticsChannel.unsubscribe('tracing:logx_asJson:start', handler))
    const logger = logx(fixed as any, createSink())
    const store = { request: 'r-1' }
    storage.run(store, () => logger.info('inside'))
    expect(stores).toEqual([store])
  })

  it('a line that fails to build publishes error, and the log call still writes its fallback line', () => {
    const seen = record('logx_asJson')
    const sink = createSink()
    const logger = logx(
      {
        ...fixed,
        formatters: {
          log: () => {
            throw new Error('formatter broke')
          },
        },
      } as any,
      sink,
    )
    logger.warn('still written')
    expect(seen.map(([event]) => event)).toEqual(['start', 'error', 'end'])
    expect((seen[1]![1].error as Error).message).toBe('formatter broke')
    expect(sink.last()).toMatchObject({
      level: 40,
      msg: 'still written',
      logxError: 'line could not be serialized: formatter broke',
    })
  })

  it('publishes nothing, and lines are unchanged, once the subscribers are gone', () => {
    const seen = record('logx_asJson')
    for (const unsubscribe of subscriptions.splice(0)) unsubscribe()
    const sink = createSink()
    logx(fixed as any, sink).info({ a: 1 }, 'quiet')
    expect(seen).toEqual([])
    expect(sink.lines).toEqual(['{"level":30,"time":1757512800000,"pid":1,"hostname":"host","a":1,"msg":"quiet"}\n'])
  })
})
