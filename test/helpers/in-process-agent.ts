// An agent started in the test's own process from a YAML text, for tests that read its console and
// state_dir while it runs (rules on kinds, intakes). The config is written where a user's would be, so
// it is loaded and checked as `logx-agent run --config` loads it.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readAgentConfig } from '../../agent/config/load/load-config'
import { startAgent, type Agent } from '../../agent/daemon/agent'
import { createAgentLogger } from '../../agent/daemon/logger'
import { pollUntil } from './poll-until'

export interface InProcessAgent {
  agent: Agent
  /** The embedded sandbox's base URL. */
  baseUrl: string
  /** A console API request with the agent's console token. */
  console(path: string, init?: RequestInit): Promise<Response>
  /** `state_dir/kinds.jsonl` as it is now ('' before the first write). */
  kindsFile(): string
  /**
   * Resolves the first listed incident by hand and waits until its kind is written resolved: the engine
   * marks it at its next tick, so a deploy or a line sent before that would come before the resolve.
   */
  resolveKindIncident(): Promise<void>
}

const started = new Set<Agent>()

/** Stops every agent startInProcessAgent started and has not stopped yet (a test file's afterEach). */
export async function stopInProcessAgents(): Promise<void> {
  const running = [...started]
  started.clear()
  await Promise.all(running.map((agent) => agent.stop(5000)))
}

/** Writes `yaml` to `configFile` and starts the agent; `stateDir` is the config's `state_dir`. */
export async function startInProcessAgent(configFile: string, stateDir: string, yaml: string): Promise<InProcessAgent> {
  writeFileSync(configFile, yaml)
  const loaded = await readAgentConfig(configFile, { env: {} })
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems))
  const agent = await startAgent(loaded.config, { log: createAgentLogger({ level: 'silent' }) })
  started.add(agent)
  const kindsFile = (): string => {
    try {
      return readFileSync(join(stateDir, 'kinds.jsonl'), 'utf8')
    } catch {
      return ''
    }
  }
  const consoleRequest = (path: string, init: RequestInit = {}): Promise<Response> => {
    const token = readFileSync(join(stateDir, 'console.token'), 'utf8').trim()
    const headers = { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${token}` }
    return fetch(`${agent.metricsUrl ?? ''}${path}`, { ...init, headers })
  }
  return {
    agent,
    baseUrl: agent.endpoint.baseUrl,
    console: consoleRequest,
    kindsFile,
    async resolveKindIncident() {
      const listed = (await (await consoleRequest('/api/incidents')).json()) as { incidents: { id: string }[] }
      const id = listed.incidents[0]?.id ?? ''
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }
      const resolved = await consoleRequest(`/api/incidents/${encodeURIComponent(id)}/resolve`, init)
      if (resolved.status !== 200) throw new Error(`resolving incident ${id}: HTTP ${resolved.status}`)
      await pollUntil('the kind resolved', () => /"lastResolved":\d/.test(kindsFile()), { timeoutMs: 30_000 })
    },
  }
}
