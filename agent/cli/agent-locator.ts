// Where the running agent's console is and which token opens it (contract: the agent writes
// `<state_dir>/console.json` = { url, pid, key } while it runs, mode 0600, and `<state_dir>/console.token` when no
// token is configured). Each piece comes from the first place that has it:
//   url:   --url, else <state_dir>/console.json, once its pid is alive and the listener at its url has
//          proved it holds its key (console-client's proveIdentity)
//   token: --token-file, else $LOGX_CONSOLE_TOKEN, else the config's console.token, else <state_dir>/console.token
// The config (--config) is read only when --url or the token is still missing, so a user who gives
// both never needs the agent's config (nor the secrets its ${VAR} references want).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { problemLine } from './problem-line'
import { readAgentConfig } from '../config/load/load-config'
import type { AgentConfig } from '../config/types'
import { createConsoleClient, proveIdentity, type ConsoleClient, type ConsoleTarget } from './console-client'

export interface LocateArgs {
  config: string
  url: string | undefined
  tokenFile: string | undefined
}

export type Located = { ok: true; target: ConsoleTarget } | { ok: false; message: string }

export const TOKEN_ENV = 'LOGX_CONSOLE_TOKEN'

type Read = { ok: true; text: string } | { ok: false; reason: string }

async function read(path: string): Promise<Read> {
  try {
    return { ok: true, text: await readFile(path, 'utf8') }
  } catch (err) {
    return { ok: false, reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message }
  }
}

/** An http:// URL, or why not. */
export function checkUrl(text: string, from: string): string | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return `${from}: "${text}" is not a URL (expected e.g. http://127.0.0.1:9464)`
  }
  return url.protocol === 'http:' ? undefined : `${from}: "${text}" is not an http:// URL`
}

/** Whether a process of that pid is gone (false when unknown: another user's, or not a pid). */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

export interface ConsoleAddress {
  url: string
  /** The key the listener must prove it holds before a token is sent to it. */
  key: string
  /** Where it was read, for messages. */
  path: string
}

/**
 * `<state_dir>/console.json`, or the sentence saying why it names no running agent: missing, not
 * what an agent writes, or left by an agent whose pid is gone (a SIGKILL leaves it behind; whatever
 * holds its port now must not get a token).
 */
export async function readConsoleJson(
  stateDir: string,
): Promise<({ ok: true } & ConsoleAddress) | { ok: false; message: string }> {
  const path = join(stateDir, 'console.json')
  const file = await read(path)
  if (!file.ok) {
    return file.reason === 'ENOENT'
      ? { ok: false, message: `no logx-agent is running for ${stateDir} (no ${path})` }
      : { ok: false, message: `cannot read ${path} (${file.reason}): run as the agent's user, or pass --url` }
  }
  let written: { url?: unknown; pid?: unknown; key?: unknown } | null
  try {
    written = JSON.parse(file.text) as { url?: unknown; pid?: unknown; key?: unknown } | null
  } catch {
    written = null
  }
  const { url, pid, key } = written ?? {}
  const whole = typeof url === 'string' && typeof key === 'string' && key.length >= 16
  if (!whole || typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0)
    return { ok: false, message: `${path} is not what this logx-agent writes (expected {"url", "pid", "key"})` }
  const bad = checkUrl(url, path)
  if (bad !== undefined) return { ok: false, message: bad }
  if (processGone(pid)) return { ok: false, message: `no running agent: ${path} is stale (pid ${pid} not alive)` }
  return { ok: true, url, key, path }
}

async function loadConfig(
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; config: AgentConfig } | { ok: false; message: string }> {
  const result = await readAgentConfig(file, { env })
  if (result.ok) return result
  const problems = result.problems.map((p) => `  ${problemLine(p)}`).join('\n')
  return {
    ok: false,
    message:
      `cannot find the agent through ${file}: the config does not load\n${problems}\n` +
      `(the CLI reads it for state_dir and console.token; or pass --url with --token-file or ${TOKEN_ENV})`,
  }
}

export async function locateAgent(args: LocateArgs, env: NodeJS.ProcessEnv): Promise<Located> {
  let token: string | undefined
  if (args.tokenFile !== undefined) {
    const file = await read(args.tokenFile)
    if (!file.ok) return { ok: false, message: `--token-file: cannot read ${args.tokenFile} (${file.reason})` }
    token = file.text.trim()
    if (token === '') return { ok: false, message: `--token-file: ${args.tokenFile} is empty` }
  } else if (env[TOKEN_ENV] !== undefined && env[TOKEN_ENV] !== '') {
    token = env[TOKEN_ENV].trim()
  }
  if (args.url !== undefined) {
    const bad = checkUrl(args.url, '--url')
    if (bad !== undefined) return { ok: false, message: bad }
    if (token !== undefined) return { ok: true, target: { url: args.url, token } }
  }

  const loaded = await loadConfig(args.config, env)
  if (!loaded.ok) return loaded
  const { config } = loaded
  if (!config.console.enabled)
    return {
      ok: false,
      message:
        `the console is disabled in ${args.config} (console.enabled: false); ` +
        'the CLI talks to the agent through it',
    }
  token ??= config.console.token?.reveal()
  if (token === undefined) {
    // Written by the agent when no token is configured; an agent of an older version has none.
    const path = join(config.stateDir, 'console.token')
    const file = await read(path)
    if (file.ok && file.text.trim() !== '') token = file.text.trim()
    else if (!file.ok && file.reason !== 'ENOENT') {
      return {
        ok: false,
        message:
          `cannot read ${path} (${file.reason}): ` +
          `run as the agent's user, or pass --token-file or set ${TOKEN_ENV}`,
      }
    }
  }
  if (args.url !== undefined) return { ok: true, target: { url: args.url, token } }
  if (config.metrics === undefined) {
    return {
      ok: false,
      message:
        `${args.config} sets no metrics.listen, ` +
        'so its agent serves no console for the CLI to talk to (or pass --url)',
    }
  }
  const found = await readConsoleJson(config.stateDir)
  if (!found.ok) return found
  // Before any token leaves: the listener on that port proves it is the agent that wrote the file.
  const impostor = await proveIdentity(found.url, found.key, found.path)
  if (impostor !== undefined) return { ok: false, message: impostor }
  return { ok: true, target: { url: found.url, token } }
}

/** The options every console command takes. */
export interface ConsoleArgs extends LocateArgs {
  json: boolean
}

/** The client for the located agent, or undefined after saying on stderr why there is none. */
export async function connectToAgent(
  args: LocateArgs,
  stderr: { write(text: string): unknown },
  env: NodeJS.ProcessEnv,
): Promise<ConsoleClient | undefined> {
  const located = await locateAgent(args, env)
  if (located.ok) return createConsoleClient(located.target)
  stderr.write(`logx-agent: ${located.message}\n`)
  return undefined
}
