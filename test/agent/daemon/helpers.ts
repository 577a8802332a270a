// Real processes for the agent's end-to-end tests: the agent from bin/logx-agent.js (the built
// dist/), the sandbox in its own process when it must outlive an agent, and a temp workspace with
// logs/, a state directory and a config whose ports are all 0.
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { requireBuild } from '../../helpers/build'
import { pollUntil } from '../../helpers/poll-until'

export const root = resolve(__dirname, '../../..')
export const agentBin = join(root, 'bin', 'logx-agent.js')

export interface Workspace {
  dir: string
  logs: string
  state: string
  config: string
  writeConfig(yaml: string): void
  remove(): void
}

export function createWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'logx-daemon-'))
  const logs = join(dir, 'logs')
  const state = join(dir, 'state')
  const config = join(dir, 'agent.yaml')
  return {
    dir,
    logs,
    state,
    config,
    writeConfig: (yaml) => writeFileSync(config, yaml),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export interface RemoteApi {
  baseUrl: string
  apiKey: string
  activityToken: string
  leadWebhookUrl: string
  activityWebhookUrl: string
}

/** The messaging section: the embedded sandbox on a free port, or a sandbox running elsewhere. */
export function messagingYaml(api?: RemoteApi): string {
  if (api === undefined) return 'messaging:\n  sandbox:\n    listen: 127.0.0.1:0\n'
  return [
    'messaging:',
    `  base_url: ${api.baseUrl}`,
    `  api_key: ${api.apiKey}`,
    `  lead_webhook: ${api.leadWebhookUrl}`,
    `  activity_webhook: ${api.activityWebhookUrl}`,
    `  activity_token: ${api.activityToken}`,
    '',
  ].join('\n')
}

/** The channel most end-to-end tests page through (the sandbox's first number). */
export const ONCALL_SMS_CHANNEL = 'oncall-sms: { type: sms, numbers: [919800000001] }'

/** An agent's config in parts, each YAML as it stands under its key (list items, channel lines). */
export interface AgentConfigParts {
  /** Where messaging goes: the embedded sandbox when absent. */
  api?: RemoteApi
  /** `sources:` list items; default: `app` tailing the workspace's logs/*.log from the beginning. */
  sources?: string
  /** Lines under `channels:`; default: ONCALL_SMS_CHANNEL alone. */
  channels?: readonly string[]
  /** `rules:` list items; none: the config has no `rules:`. */
  rules?: string
  /** YAML appended at the top level (`people:`, `acknowledge:`, a fleet's `cluster:`). */
  sections?: string
}

const TAIL_APP_LOGS = (ws: Workspace): string => `  - name: app\n    paths: [${ws.logs}/*.log]\n    start_at: beginning`

const listItems = (yaml: string): string => `${yaml.replace(/^\n+/, '').trimEnd()}\n`

/** The config of an end-to-end test: its state in the workspace, metrics and console on a free port. */
export function agentConfig(ws: Workspace, parts: AgentConfigParts = {}): string {
  const channels = (parts.channels ?? [ONCALL_SMS_CHANNEL]).map((line) => `  ${line}\n`).join('')
  const rules = parts.rules === undefined ? '' : `rules:\n${listItems(parts.rules)}`
  return `${messagingYaml(parts.api)}state_dir: ${ws.state}
sources:
${listItems(parts.sources ?? TAIL_APP_LOGS(ws))}channels:
${channels}${rules}metrics: { listen: 127.0.0.1:0 }
${parts.sections ?? ''}`
}

/**
 * The config most end-to-end tests run: `app` tailing the workspace's logs/*.log from the
 * beginning, an `oncall-sms` channel, the rules given (YAML list items), and metrics on a free port.
 * `more.channels`: further channel lines (indented as under `channels:`); `more.sections`: YAML
 * appended at the top level (a fleet's `cluster:`).
 */
export function smsRulesConfig(
  ws: Workspace,
  rules: string,
  api?: RemoteApi,
  more: { channels?: string[]; sections?: string } = {},
): string {
  const channels = [ONCALL_SMS_CHANNEL, ...(more.channels ?? [])]
  return agentConfig(ws, { api, rules, channels, sections: more.sections })
}

export interface RunningAgent {
  child: ChildProcess
  /** Messaging base URL (the embedded sandbox's when there is one). */
  baseUrl: string
  metricsUrl: string
  /** A request to the agent's console API with the token it generated (<state_dir>/console.token). */
  console(path: string, init?: RequestInit): Promise<Response>
  output(): string
  errors(): string
  exited: Promise<number | null>
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>
  kill(signal: NodeJS.Signals): Promise<number | null>
}

export function spawnAgent(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): {
  child: ChildProcess
  output(): string
  errors(): string
  exited: Promise<number | null>
} {
  requireBuild()
  const child = spawn(process.execPath, [agentBin, ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, output: () => out, errors: () => err, exited }
}

export async function startAgentProcess(config: string, env: NodeJS.ProcessEnv = {}): Promise<RunningAgent> {
  const spawned = spawnAgent(['run', '--config', config], { env })
  let exitCode: number | null | undefined
  void spawned.exited.then((code) => (exitCode = code))
  const waitForOutput = (pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> =>
    pollUntil(
      `${pattern} in the agent's output`,
      () => {
        if (exitCode !== undefined)
          throw new Error(`agent exited (${exitCode}) before ${pattern}:\n${spawned.output()}\n${spawned.errors()}`)
        return pattern.exec(spawned.output()) ?? undefined
      },
      { timeoutMs },
    )
  await waitForOutput(/Open the inbox|Stop with Ctrl-C/)
  const base = /messaging: (?:the embedded sandbox \(no real API configured\) at )?(\S+)/.exec(spawned.output())
  const metrics = /metrics: (\S+)\/metrics/.exec(spawned.output())
  return {
    ...spawned,
    baseUrl: base?.[1] ?? '',
    metricsUrl: metrics?.[1] ?? '',
    console(path, init = {}) {
      const stateDir = /state in (\S+)/.exec(spawned.output())?.[1] ?? ''
      const token = readFileSync(join(stateDir, 'console.token'), 'utf8').trim()
      const headers = { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${token}` }
      return fetch(`${metrics?.[1] ?? ''}${path}`, { ...init, headers })
    },
    waitForOutput,
    async kill(signal) {
      if (exitCode === undefined) spawned.child.kill(signal)
      return spawned.exited
    },
  }
}

export interface AgentInWorkspace {
  ws: Workspace
  agent: RunningAgent
  /** SIGKILLs the agent (if it still runs) and removes the workspace. */
  stop(): Promise<void>
}

/**
 * A workspace with its logs/ folder, `prepare` run on it (files the agent must find at start), the
 * config `configOf` makes written, and an agent started on it. If the agent does not start, the
 * workspace is removed before the error goes on.
 */
export async function startAgentInWorkspace(
  configOf: (ws: Workspace) => string,
  prepare: (ws: Workspace) => void = () => {},
): Promise<AgentInWorkspace> {
  const ws = createWorkspace()
  try {
    mkdirSync(ws.logs, { recursive: true })
    prepare(ws)
    ws.writeConfig(configOf(ws))
    const agent = await startAgentProcess(ws.config)
    return {
      ws,
      agent,
      async stop() {
        await agent.kill('SIGKILL')
        ws.remove()
      },
    }
  } catch (err) {
    ws.remove()
    throw err
  }
}

export interface SandboxProcess {
  api: RemoteApi
  close(): Promise<void>
}

/** What a sandbox child process sends once it listens. */
export interface SandboxReadyMessage {
  info: { baseUrl: string; leadWebhookUrl: string; activityWebhookUrl: string }
  apiKey: string
  activityToken: string
}

export function remoteApiOf(message: SandboxReadyMessage): RemoteApi {
  return {
    baseUrl: message.info.baseUrl,
    apiKey: message.apiKey,
    activityToken: message.activityToken,
    leadWebhookUrl: message.info.leadWebhookUrl,
    activityWebhookUrl: message.info.activityWebhookUrl,
  }
}

/** A sandbox in its own process, so records survive the agent's SIGKILL. */
export async function startSandboxProcess(): Promise<SandboxProcess> {
  requireBuild()
  const child = fork(join(root, 'test/fixtures/transports/apps/sandbox-process.js'), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  const [message] = (await once(child, 'message')) as [SandboxReadyMessage]
  return {
    api: remoteApiOf(message),
    async close() {
      const exited = once(child, 'exit')
      child.disconnect()
      await exited
    },
  }
}

export interface SandboxRecord {
  seq: number
  kind: string
  record: Record<string, unknown>
}

export async function records(baseUrl: string, kinds = 'sms,chat,mail,voice,lead,activity'): Promise<SandboxRecord[]> {
  const response = await fetch(`${baseUrl}/_sandbox/records?kind=${kinds}&limit=5000`)
  const body = (await response.json()) as { records: SandboxRecord[] }
  return body.records.sort((a, b) => a.seq - b.seq)
}

export const smsTexts = (all: readonly SandboxRecord[]): string[] =>
  all.filter((r) => r.kind === 'sms').map((r) => String(r.record.sms))

/** Polls until `count(texts)` holds, then returns the records (bounded deadline). */
export async function recordsWhen(
  baseUrl: string,
  what: string,
  ok: (all: SandboxRecord[]) => boolean,
  timeoutMs = 20_000,
): Promise<SandboxRecord[]> {
  let last: SandboxRecord[] = []
  try {
    return await pollUntil(
      what,
      async () => {
        last = await records(baseUrl)
        return ok(last) ? last : undefined
      },
      { timeoutMs },
    )
  } catch (err) {
    // Say what did arrive: a missing alert is then obvious from the failure alone.
    throw new Error(`${(err as Error).message}; SMS received: ${JSON.stringify(smsTexts(last))}`)
  }
}

export async function metric(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text()
  let sum = 0
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) sum += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return sum
}
