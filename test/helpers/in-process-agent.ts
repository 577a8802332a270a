// An agent started in the test's own process from a YAML text, for tests that read its console and
// state_dir while it runs (rules on kinds, intakes). The config is written where a user's would be, so
// it is loaded and checked as `logx-agent run --config` loads it.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readAgentConfig } from '../../agent/config/load/load-config'
import { startAgent, type Agent } from '../../agent/daemon/agent'
import { createAgentLogger } from '../../agent/daemon/logger'

export interface InProcessAgent {
  agent: Agent
  /** The embedded sandbox's base URL. */
  baseUrl: string
  /** A console API request with the agent's console token. */
  console(path: string, init?: RequestInit): Promise<Response>
  /** `state_dir/kinds.jsonl` as it is now ('' before the first write). */
  kindsFile(): string
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
  return {
    agent,
    baseUrl: agent.endpoint.baseUrl,
    console(path, init = {}) {
      const token = readFileSync(join(stateDir, 'console.token'), 'utf8').trim()
      const headers = { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${token}` }
      return fetch(`${agent.metricsUrl ?? ''}${path}`, { ...init, headers })
    },
    kindsFile() {
      try {
        return readFileSync(join(stateDir, 'kinds.jsonl'), 'utf8')
      } catch {
        return ''
      }
    },
  }
}
