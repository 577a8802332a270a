// A reload: a new config applied to a running agent. Rules, channels and silences change at once,
// then the missed-call poller, the sources (source-readers.ts) and the metrics endpoint. What only
// a restart can change keeps its running value, and is said (restartOnly).
import type { AgentConfig } from '../config/types'
import type { RunningAgent } from './running-agent'

/**
 * The keys that changed but need a restart (pure).
 * Rules:
 * 1. `messaging`: the embedded sandbox's address, or the remote API's base URL, changed.
 * 2. `state_dir` changed.
 * 3. `cluster` changed in any way. Secrets print as [secret], so a new password alone is not seen
 *    here, and needs a restart all the same.
 */
export function restartOnly(running: AgentConfig, next: AgentConfig): string[] {
  const changed: string[] = []
  const listen = (c: AgentConfig): string =>
    c.messaging.mode === 'sandbox'
      ? `sandbox ${c.messaging.listen.host}:${c.messaging.listen.port}`
      : `remote ${c.messaging.baseUrl}`
  if (listen(running) !== listen(next)) changed.push('messaging')
  if (running.stateDir !== next.stateDir) changed.push('state_dir')
  if (JSON.stringify(running.cluster) !== JSON.stringify(next.cluster)) changed.push('cluster')
  return changed
}

/** Applies `next`; resolves with the keys that need a restart. */
export async function reloadAgent(agent: RunningAgent, next: AgentConfig): Promise<string[]> {
  const running = agent.config
  const ignored = restartOnly(running, next)
  agent.path.pipeline.replace(agent.setupOf(next), agent.now())
  await agent.acks.apply(next)
  // Keys that need a restart keep their running values; metrics changes as its endpoint does.
  agent.config = {
    ...next,
    messaging: running.messaging,
    stateDir: running.stateDir,
    metrics: running.metrics,
    cluster: running.cluster,
  }
  agent.digest.apply()
  await agent.readers.apply(running.sources, next.sources)
  if (await agent.metrics.apply(next.metrics)) agent.config = { ...agent.config, metrics: next.metrics }
  agent.counters.reloads++
  return ignored
}
