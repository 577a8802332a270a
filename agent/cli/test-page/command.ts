// `logx-agent test-page <person|channel> [--config F] [--timeout 5m] [--json]`: the fire drill of
// issue #33. One clearly marked test page to that person on each of their channels (or to the named
// channel), recorded as a test incident, then a wait for their missed call, each step reported.
// Through the running agent when one serves its console (POST /api/test-pages, then its progress at
// GET /api/test-pages/<id>), else alone: the alert path and the missed-call watcher in this process.
// Exit 0 acknowledged, 1 the wait timed out (or the page failed, or the agent cannot be reached),
// 2 a bad command line or config.
import { problemLine } from '../problem-line'
import { readAgentConfig } from '../../config/load/load-config'
import type { AgentConfig } from '../../config/types'
import { DURATION_HINT, parseDuration } from '../../config/values/duration'
import type { TestPageView } from '../../daemon/console/test-page-types'
import { connectToAgent, readConsoleJson, type ConsoleArgs } from '../agent-locator'
import { missingConfigMessage } from '../init/missing-config'
import { untilAborted, type CliIo } from '../io'
import { createReporter, type ReportSink } from './report'
import { outcomeOf } from './steps'

export interface TestPageArgs extends ConsoleArgs {
  target: string
  timeout: string
}

const POLL_MS = 1000
const MAX_TIMEOUT_MS = 60 * 60_000

type Progress = () => Promise<TestPageView | string>

function usage(io: CliIo, message: string): number {
  io.stderr.write(`logx-agent: ${message}\n`)
  return 2
}

async function loadConfig(file: string, io: CliIo, env: NodeJS.ProcessEnv): Promise<AgentConfig | number> {
  const missing = await missingConfigMessage(file, 'name another: logx-agent test-page NAME --config FILE')
  if (missing !== undefined) {
    io.stderr.write(missing)
    return 2
  }
  const loaded = await readAgentConfig(file, { env })
  if (loaded.ok) return loaded.config
  return usage(io, `${file} does not load:\n${loaded.problems.map((p) => `  ${problemLine(p)}`).join('\n')}`)
}

/** Whether an agent serves its console for this config; the sentence why not otherwise. */
async function runningAgent(config: AgentConfig): Promise<{ running: true } | { running: false; why: string }> {
  if (config.metrics === undefined) return { running: false, why: `${config.file} sets no metrics.listen` }
  if (!config.console.enabled) return { running: false, why: `the console is disabled in ${config.file}` }
  const found = await readConsoleJson(config.stateDir)
  return found.ok ? { running: true } : { running: false, why: found.message }
}

/** A wait that holds the process open (the command waits for nothing else), cut short by the signal. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const slept = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  return Promise.race([slept, untilAborted(signal)]).finally(() => clearTimeout(timer))
}

/** Reports the page until it ends (or the command is interrupted: then it counts as not acknowledged). */
async function follow(first: TestPageView, progress: Progress, io: CliIo, json: boolean): Promise<number> {
  const reporter = createReporter(io.stdout as ReportSink, json)
  reporter.started(first)
  let page = first
  for (;;) {
    const now = Date.now()
    reporter.progress(page, now)
    const outcome = outcomeOf(page, now)
    if (outcome.kind !== 'waiting') return reporter.finished(page, outcome)
    if (io.signal.aborted) return reporter.finished(page, { kind: 'timed_out', exitCode: 1 })
    await pause(POLL_MS, io.signal)
    const next = await progress()
    if (typeof next === 'string') {
      io.stderr.write(`logx-agent: ${next}\n`)
      return reporter.finished(page, { kind: 'failed', exitCode: 1 })
    }
    page = next
  }
}

async function throughAgent(args: TestPageArgs, timeoutMs: number, io: CliIo, env: NodeJS.ProcessEnv) {
  const client = await connectToAgent(args, io.stderr, env)
  if (client === undefined) return 2
  const body = { target: args.target, timeout: timeoutMs }
  const started = await client.post<{ testPage?: TestPageView }>('/api/test-pages', body)
  if (!started.ok || started.body.testPage === undefined) {
    io.stderr.write(`logx-agent: ${started.ok ? 'the agent answered without a test page' : started.message}\n`)
    return started.status === 404 || started.status === 400 ? 2 : 1
  }
  const { id } = started.body.testPage
  const progress: Progress = async () => {
    const read = await client.get<{ testPage?: TestPageView }>(`/api/test-pages/${encodeURIComponent(id)}`)
    if (!read.ok) return read.message
    return read.body.testPage ?? 'the agent answered without a test page'
  }
  return follow(started.body.testPage, progress, io, args.json)
}

async function alone(config: AgentConfig, args: TestPageArgs, timeoutMs: number, io: CliIo): Promise<number> {
  const { startAlone } = await import('./alone.js')
  const run = await startAlone(config, io.stderr)
  try {
    const started = run.pages.start({ target: args.target, timeoutMs })
    if (!started.ok) return usage(io, started.error)
    const { id } = started.page
    const progress: Progress = () =>
      Promise.resolve(run.pages.get(id) ?? `test page ${id} is gone`).then((v) =>
        typeof v === 'string' ? v : (JSON.parse(JSON.stringify(v)) as TestPageView),
      )
    return await follow(started.page, progress, io, args.json)
  } finally {
    await run.stop()
  }
}

export async function testPageCommand(
  args: TestPageArgs,
  io: CliIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const timeoutMs = parseDuration(args.timeout)
  if (timeoutMs === undefined || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS)
    return usage(io, `--timeout: must be ${DURATION_HINT}, more than 0 and at most 1h`)
  if (args.target.trim() === '') return usage(io, 'give the name of a person or a channel of the config')
  const config = await loadConfig(args.config, io, env)
  if (typeof config === 'number') return config
  if (args.url !== undefined) return throughAgent(args, timeoutMs, io, env)
  const agent = await runningAgent(config)
  if (agent.running) return throughAgent(args, timeoutMs, io, env)
  if (!args.json) io.stdout.write(`no running agent (${agent.why}): paging from this process\n`)
  return alone(config, args, timeoutMs, io)
}
