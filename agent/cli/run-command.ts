// `logx-agent run` (the default command): load the config, start the agent (embedded sandbox unless
// a real API is configured), say where the inbox is, serve until SIGINT/SIGTERM, reload on SIGHUP or
// when the config file changes. An invalid config at start is every problem and exit 1; an invalid
// config at reload is every problem in the log, and the running one stays.
import { problemLine } from './problem-line'
import { readAgentConfig } from '../config/load/load-config'
import type { AgentConfig, SourceConfig } from '../config/types'
import { startAgent, type Agent } from '../daemon/agent'
import { watchConfigFile } from '../daemon/config-watch'
import { DaemonError } from '../daemon/errors'
import { createAgentLogger, type AgentLogger } from '../daemon/logger'
import { createTap, type Tap } from '../daemon/tap'
import { missingConfigMessage } from './init/missing-config'
import { showApiUrl } from '../config/values/api-url'
import { untilAborted, type CliIo } from './io'

export interface RunArgs {
  config: string
  /** Override of messaging.sandbox.listen's port (0 picks a free one). */
  port: number | undefined
  host: string | undefined
  /** Pass-everything mode: append every line read, as NDJSON, to this file (`-`: stdout). */
  tap?: string | undefined
}

/** Below pm2's kill_timeout (15 s in ecosystem.config.js), so the drain ends before pm2's SIGKILL. */
export const DRAIN_TIMEOUT_MS = 10_000

function withListenOverride(config: AgentConfig, args: RunArgs): AgentConfig {
  if (config.messaging.mode !== 'sandbox' || (args.port === undefined && args.host === undefined)) return config
  const listen = { host: args.host ?? config.messaging.listen.host, port: args.port ?? config.messaging.listen.port }
  return { ...config, messaging: { ...config.messaging, listen } }
}

function sourceLine(source: SourceConfig, intakeUrls: readonly string[] | undefined): string {
  if (intakeUrls !== undefined) return `listening ${source.name} (${source.type}): ${intakeUrls.join(', ')}`
  if (source.journald !== undefined) {
    const units = source.journald.units
    return `reading ${source.name}: the journal${units.length > 0 ? ` (${units.join(', ')})` : ''}`
  }
  return `tailing ${source.name}: ${source.paths.join(', ')} (${source.format})`
}

function banner(agent: Agent, file: string): string {
  const { config, endpoint } = agent
  const lines = [
    `logx-agent running with ${file}: ${config.sources.length} source(s), ${config.rules.length} rule(s), ` +
      `state in ${config.stateDir}`,
  ]
  for (const source of config.sources) lines.push(`  ${sourceLine(source, agent.intakeUrls(source.name))}`)
  if (endpoint.mode === 'sandbox') {
    lines.push(`  messaging: the embedded sandbox (no real API configured) at ${endpoint.baseUrl}`)
    lines.push(`  inbox URL: ${endpoint.inboxUrl ?? ''}`)
  } else {
    lines.push(`  messaging: ${showApiUrl(endpoint.baseUrl, config.secrets)}`)
  }
  if (agent.metricsUrl !== undefined)
    lines.push(`  metrics: ${agent.metricsUrl}/metrics  health: ${agent.metricsUrl}/health`)
  const login = agent.consoleLoginUrl()
  if (login !== undefined)
    lines.push(`  console: ${login}  (one-time login, 10 min; \`logx-agent console\` prints a new one)`)
  if (endpoint.inboxUrl !== undefined) lines.push(`Open the inbox at ${endpoint.inboxUrl} ; stop with Ctrl-C.`)
  else lines.push('Stop with Ctrl-C.')
  return `${lines.join('\n')}\n`
}

function reloader(file: string, args: RunArgs, agent: Agent, log: AgentLogger, io: CliIo): () => void {
  let running = false
  let again = false
  const reload = async (): Promise<void> => {
    const result = await readAgentConfig(file)
    if (!result.ok) {
      agent.countReloadFailure()
      const problems = result.problems.map(problemLine)
      log.error({ problems }, `config reload rejected: ${problems.length} problem(s); the running config stays`)
      io.stderr.write(
        `logx-agent: config reload rejected, the running config stays:\n${problems.map((p) => `  ${p}\n`).join('')}`,
      )
      return
    }
    const ignored = await agent.apply(withListenOverride(result.config, args))
    log.info({ rules: result.config.rules.length, channels: result.config.channels.length }, 'config reloaded')
    if (ignored.length > 0)
      log.warn({ keys: ignored }, `changes to ${ignored.join(', ')} take effect at the next restart`)
  }
  return () => {
    if (running) {
      again = true
      return
    }
    running = true
    void (async () => {
      do {
        again = false
        await reload().catch((err: unknown) => log.error({ err }, 'config reload failed'))
      } while (again)
      running = false
    })()
  }
}

export async function runCommand(args: RunArgs, io: CliIo): Promise<number> {
  const missing = await missingConfigMessage(args.config, 'name another with --config FILE')
  if (missing !== undefined) {
    io.stderr.write(missing)
    return 2
  }
  const result = await readAgentConfig(args.config)
  if (!result.ok) {
    for (const problem of result.problems) io.stderr.write(`${problemLine(problem)}\n`)
    io.stderr.write(`${args.config}: ${result.problems.length} problem(s); not starting\n`)
    return 1
  }
  // Same stream as the banner, so the two stay in order (and tests that capture io see both).
  const log = createAgentLogger({ destination: io.stdout })
  let agent: Agent
  let tap: Tap | undefined
  try {
    if (args.tap !== undefined) {
      let failures = 0
      tap = createTap({
        target: args.tap,
        stdout: io.stdout,
        // Alerting goes on without the tap; the first failures say why it has gaps.
        onError: (err) => {
          if (++failures <= 10) log.error({ err }, `--tap ${args.tap}: write failed; the tap misses lines`)
        },
      })
    }
    agent = await startAgent(withListenOverride(result.config, args), { log, tap })
  } catch (err) {
    tap?.close()
    if (err instanceof DaemonError || (err as { code?: string }).code === 'LOGX_SANDBOX_ERR_LISTEN') {
      io.stderr.write(`logx-agent: ${(err as Error).message}\n`)
      return 1
    }
    // --host off loopback without messaging.sandbox.allow_remote: the command line asked for it.
    if ((err as { code?: string }).code === 'LOGX_SANDBOX_ERR_REMOTE_HOST') {
      io.stderr.write(`logx-agent: ${(err as Error).message}\n`)
      return 2
    }
    throw err
  }
  io.stdout.write(banner(agent, args.config))
  log.info(
    {
      sources: agent.config.sources.map((s) => s.name),
      messaging: agent.endpoint.mode,
      inbox: agent.endpoint.inboxUrl,
      metrics: agent.metricsUrl,
    },
    'agent started',
  )

  const reload = reloader(args.config, args, agent, log, io)
  const onHangup = (): void => {
    log.info('SIGHUP: reloading the config')
    reload()
  }
  process.on('SIGHUP', onHangup)
  const watch = watchConfigFile(args.config, reload)
  io.ready?.()

  await untilAborted(io.signal)
  watch.close()
  process.off('SIGHUP', onHangup)
  log.info('stopping: no more reading; draining the outbox')
  const stopped = await agent.stop(DRAIN_TIMEOUT_MS)
  if (stopped.drained) log.info('stopped; outbox empty')
  else
    log.warn(
      { pending: stopped.pending },
      `stopped with ${stopped.pending} notification(s) kept in the outbox for the next start`,
    )
  tap?.close()
  io.stdout.write('logx-agent stopped\n')
  return 0
}
