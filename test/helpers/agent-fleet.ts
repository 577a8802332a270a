// A fleet of real agents for an end-to-end suite or drill: one real redis-server, one sandbox in its
// own process (what it received outlives every agent), and one agent per id, each in its own
// workspace with its `cluster:` section and a port free for an intake source. Agents start one at a
// time: on two cores, parallel starts only race each other. Stopping takes down whatever started,
// also after a start that failed half-way.
import { createWorkspace, startAgentProcess, startSandboxProcess } from '../agent/daemon/helpers'
import type { RunningAgent, SandboxProcess, Workspace } from '../agent/daemon/helpers'
import { freePort } from './free-port'
import { startRedisServer, type RedisServer } from './redis-server'

export interface ClusterOptions {
  lease?: string
  /** How long a Redis command may wait (`command_timeout`); the agent's default when absent. */
  commandTimeout?: string
}

/** The `cluster:` section of agent `agentId` on the Redis at `redisUrl`: short lease and beats, for tests. */
export function clusterYaml(agentId: string, redisUrl: string, options: ClusterOptions = {}): string {
  const timeout = options.commandTimeout === undefined ? '' : `  command_timeout: ${options.commandTimeout}\n`
  return `cluster:
  agent_id: ${agentId}
  redis:
    url: ${redisUrl}
  lease: ${options.lease ?? '2s'}
  heartbeat: 200ms
  flush: 50ms
${timeout}`
}

/** What one member's config is made from. */
export interface FleetMember {
  id: string
  ws: Workspace
  sandbox: SandboxProcess
  /** Its `cluster:` section, from clusterYaml. */
  cluster: string
  /** A port free for its intake source's `listen:` (unused by a fleet that only tails files). */
  port: number
}

export interface FleetOptions {
  /** One agent per id (its `cluster.agent_id`), started in this order. */
  ids: readonly string[]
  configOf(member: FleetMember): string
  cluster?: ClusterOptions
  /** Run on each workspace before its agent starts: the files it must find. */
  prepare?(ws: Workspace): void
}

export interface AgentFleet {
  /** In the order of the ids; filled by start(). */
  readonly agents: RunningAgent[]
  readonly workspaces: Workspace[]
  /** Each agent's intake port, and its URL `http://127.0.0.1:<port>/`. */
  readonly ports: number[]
  readonly urls: string[]
  /** Throw before start(). */
  readonly redis: RedisServer
  readonly sandbox: SandboxProcess
  start(): Promise<void>
  /** SIGKILLs every agent, closes the sandbox, stops Redis, removes the workspaces. */
  stop(): Promise<void>
}

export function agentFleet(options: FleetOptions): AgentFleet {
  let redis: RedisServer | undefined
  let sandbox: SandboxProcess | undefined
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the fleet's ${what} is not started: call start() first`)
    return value
  }
  const fleet: AgentFleet = {
    agents: [],
    workspaces: [],
    ports: [],
    urls: [],
    get redis() {
      return started(redis, 'redis-server')
    },
    get sandbox() {
      return started(sandbox, 'sandbox')
    },
    async start() {
      redis = await startRedisServer()
      sandbox = await startSandboxProcess()
      for (const id of options.ids) {
        const ws = createWorkspace()
        fleet.workspaces.push(ws)
        options.prepare?.(ws)
        const port = await freePort()
        const cluster = clusterYaml(id, redis.url, options.cluster)
        ws.writeConfig(options.configOf({ id, ws, sandbox, cluster, port }))
        fleet.agents.push(await startAgentProcess(ws.config))
        fleet.ports.push(port)
        fleet.urls.push(`http://127.0.0.1:${port}/`)
      }
    },
    async stop() {
      for (const agent of fleet.agents) await agent.kill('SIGKILL')
      await sandbox?.close()
      await redis?.stop()
      for (const ws of fleet.workspaces) ws.remove()
    },
  }
  return fleet
}
