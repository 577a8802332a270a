// Stopping the agent, the start run the other way: stop reading (the offsets of handled lines are
// written), fire what waits in group_wait, drain the outbox within a bound, then close the rest.
import type { RunningAgent, StopResult } from './running-agent'

/** Stops `agent`, once the reload in progress (`reloading`) has settled; never rejects. */
export async function stopAgent(
  agent: RunningAgent,
  drainTimeoutMs: number,
  reloading: Promise<unknown>,
): Promise<StopResult> {
  const { log, path, acks, fleet, metrics, endpoint } = agent
  const { pipeline, dispatcher } = path
  // Each step runs whatever the one before did: a failing close must not keep the outbox undrained.
  const step = async (what: string, fn: () => unknown): Promise<void> => {
    try {
      await fn()
    } catch (err) {
      log.error({ err }, `stopping: ${what} failed`)
    }
  }
  clearInterval(agent.clock)
  agent.digest.stop()
  await reloading
  for (const reader of agent.readers.running) await step(`closing source ${reader.name}`, () => reader.close())
  await step('stopping the missed-call poller', () => acks.stop())
  await step('flushing the engine', () => pipeline.flush(agent.now()))
  await step('writing the kinds', () => agent.kinds.stop())
  let result: StopResult = { drained: false, pending: dispatcher.stats().depth }
  await step('draining the outbox', async () => {
    result = await dispatcher.drain(drainTimeoutMs)
  })
  await step('closing the outbox', () => dispatcher.close())
  await step('leaving the fleet', () => fleet?.close())
  await step('closing the metrics server', () => metrics.close())
  await step('removing the console address', () => metrics.removeConsoleFiles())
  await step('closing the messaging endpoint', () => endpoint.close())
  agent.lock.release()
  return result
}
