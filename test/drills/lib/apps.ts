// Real app processes for the app-exit and logger-stress drills: fixture apps run with `node` or
// under a private pm2, their exit observed, and the alerts they sent counted at a sandbox that
// lives in its own process (so an app's death cannot take the evidence with it).
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { records, root, type RemoteApi, type SandboxRecord } from '../../agent/daemon/helpers'
import { pollUntil } from '../../helpers/poll-until'

const run = promisify(execFile)
export const fixtures = join(root, 'test', 'fixtures', 'drills')
const pm2Bin = join(root, 'node_modules', 'pm2', 'bin', 'pm2')

export interface AppExit {
  code: number | null
  signal: NodeJS.Signals | null
  stderr: string
}

/** The environment an alert app needs to reach the sandbox (the targets read it as fallbacks). */
export function apiEnv(api: RemoteApi): NodeJS.ProcessEnv {
  return {
    LOGX_MESSAGING_URL: api.baseUrl,
    LOGX_API_KEY: api.apiKey,
    LOGX_LEAD_WEBHOOK: api.leadWebhookUrl,
    LOGX_ACTIVITY_WEBHOOK: api.activityWebhookUrl,
    LOGX_ACTIVITY_TOKEN: api.activityToken,
  }
}

export interface SpawnedApp {
  child: ChildProcess
  exited: Promise<AppExit>
  stdout(): string
  stderr(): string
}

/** Starts `node <script> ...args` from the repo root with extra environment; output is collected. */
export function spawnApp(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { stdout?: 'pipe' | 'ignore' } = {},
): SpawnedApp {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
    stderr: err,
  }))
  return { child, exited, stdout: () => out, stderr: () => err }
}

/** Runs `work(i)` for i in [0, count) with at most `parallel` at once. */
export async function inBatches(count: number, parallel: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(parallel, count) }, async () => {
    while (next < count) await work(next++)
  })
  await Promise.all(lanes)
}

/** Resolves once `<dir>/<name>` exists (the app's "I logged" mark), or fails when the app exits first. */
export async function markOf(dir: string, name: string, app?: SpawnedApp, timeoutMs = 20_000): Promise<void> {
  let gone: AppExit | undefined
  void app?.exited.then((exit) => (gone = exit))
  await pollUntil(
    `mark ${name}`,
    () => {
      if (existsSync(join(dir, name))) return true
      if (gone !== undefined)
        throw new Error(`app exited (${gone.code ?? gone.signal}) before logging:\n${gone.stderr}`)
      return undefined
    },
    { timeoutMs: timeoutMs },
  )
}

/** What one app run is expected to leave at the sandbox: a record per kind whose JSON holds `needle`. */
export interface Expectation {
  needle: string
  kinds: string[]
}

export interface AlertCount {
  expected: number
  lost: number
  duplicated: number
  missing: string[]
}

export function countAlerts(all: readonly SandboxRecord[], expectations: readonly Expectation[]): AlertCount {
  let expected = 0
  let lost = 0
  let duplicated = 0
  const missing: string[] = []
  for (const { needle, kinds } of expectations) {
    for (const kind of kinds) {
      expected++
      const found = all.filter((r) => r.kind === kind && JSON.stringify(r.record).includes(needle)).length
      if (found === 0) {
        lost++
        missing.push(`${kind}:${needle}`)
      } else {
        duplicated += found - 1
      }
    }
  }
  return { expected, lost, duplicated, missing }
}

/** Polls the sandbox until every expected alert is there or the deadline passes; returns the count. */
export async function awaitAlerts(
  baseUrl: string,
  expectations: readonly Expectation[],
  timeoutMs = 15_000,
): Promise<AlertCount> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const count = countAlerts(await records(baseUrl, 'sms,chat,lead'), expectations)
    if (count.lost === 0 || Date.now() > deadline) return count
    await new Promise((r) => setTimeout(r, 100))
  }
}

export interface Pm2App {
  name: string
  env: NodeJS.ProcessEnv
}

/** A pm2 daemon of its own (PM2_HOME in `dir`), driven through pm2's CLI. */
export interface PrivatePm2 {
  home: string
  cli(...args: string[]): Promise<string>
  /** Starts the fixture `script` once per app, from one ecosystem file, never restarted. */
  start(
    script: string,
    apps: readonly Pm2App[],
    options: { killSignal: NodeJS.Signals; killTimeoutMs: number },
  ): Promise<void>
  /** What an app wrote on stderr (pm2's error log), for failure messages. */
  errorLog(name: string): string
  /** pm2 jlist: name -> status. */
  statuses(): Promise<Map<string, string>>
  kill(): Promise<void>
}

export function createPrivatePm2(dir: string): PrivatePm2 {
  const home = join(dir, 'pm2')
  mkdirSync(home, { recursive: true })
  const env = { ...process.env, PM2_HOME: home }
  const cli = async (...args: string[]): Promise<string> =>
    (await run(process.execPath, [pm2Bin, ...args], { cwd: root, env, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }))
      .stdout
  let files = 0
  return {
    home,
    cli,
    async start(script, apps, options) {
      const file = join(dir, `ecosystem-${files++}.json`)
      writeFileSync(
        file,
        JSON.stringify({
          apps: apps.map((app) => ({
            name: app.name,
            script,
            cwd: root,
            exec_mode: 'fork',
            autorestart: false,
            kill_signal: options.killSignal,
            kill_timeout: options.killTimeoutMs,
            env: app.env,
          })),
        }),
      )
      await cli('start', file)
    },
    errorLog(name) {
      const file = join(home, 'logs', `${name}-error.log`)
      return existsSync(file) ? readFileSync(file, 'utf8') : ''
    },
    async statuses() {
      const list = JSON.parse(await cli('jlist')) as { name: string; pm2_env: { status: string } }[]
      return new Map(list.map((p) => [p.name, p.pm2_env.status]))
    },
    async kill() {
      await cli('kill').catch(() => '')
    },
  }
}
