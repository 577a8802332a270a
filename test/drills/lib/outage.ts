// Helpers of the outage drill: a sandbox process that can go down and come back at the same
// address with its records (and logs every exchange from the server's side), the checks run on
// that log (Retry-After honoured), and an RSS sampler for the agent.
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { remoteApiOf, type RemoteApi, type SandboxReadyMessage } from '../../agent/daemon/helpers'

const script = join(__dirname, 'outage-sandbox.js')

export interface OutageSandbox {
  api: RemoteApi
  port: number
  pid: number
  /** Down: the process is killed, so connections are refused until start() again. */
  kill(): Promise<void>
  /** Clean stop (end of the drill). */
  close(): Promise<void>
}

/** Starts the sandbox process on `port` (0: any free one) with `dataDir`, logging exchanges to `requestLog`. */
export async function startOutageSandbox(options: {
  port: number
  dataDir: string
  requestLog: string
  faults?: unknown[]
}): Promise<OutageSandbox> {
  const args = [String(options.port), options.dataDir, options.requestLog, JSON.stringify(options.faults ?? [])]
  const child: ChildProcess = fork(script, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const exited = once(child, 'exit')
  const first = await Promise.race([once(child, 'message'), exited.then(() => undefined)])
  if (first === undefined) throw new Error(`the outage sandbox exited before listening on port ${options.port}`)
  const [message] = first as [SandboxReadyMessage]
  return {
    api: remoteApiOf(message),
    port: Number(new URL(message.info.baseUrl).port),
    pid: child.pid as number,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.disconnect()
      await exited
    },
  }
}

export interface Exchange {
  arrived: number
  ended: number
  /** When the status line was written; absent when none was. */
  answered: number | undefined
  method: string
  url: string
  /** HTTP status sent, or `closed` when the connection ended without one (drop, client timeout). */
  outcome: number | 'closed'
  retryAfter: string | undefined
  key: string | undefined
  body: string
}

export function readExchanges(requestLog: string): Exchange[] {
  if (!existsSync(requestLog)) return []
  return readFileSync(requestLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Exchange)
}

/** Same request again: same method, URL and body (a retry re-sends the body it was built with). */
const sameRequest = (e: Exchange): string => `${e.method} ${e.url} ${e.body}`

export interface RetryAfterCheck {
  /** 429 answers with a Retry-After that were followed by the same request again. */
  checked: number
  /** Those retried sooner than asked: how much sooner, in ms. */
  violations: { url: string; earlyByMs: number }[]
  /** Shortest wait seen after a 429, in ms (for the notes). */
  shortestWaitMs: number | undefined
}

/**
 * For every 429 with Retry-After, the next arrival of the same request must come at least that long
 * after the 429's status line was written (the earliest the client could have read it). `slackMs` absorbs timer rounding (timers and Date.now() round differently).
 */
export function checkRetryAfter(exchanges: readonly Exchange[], slackMs = 5): RetryAfterCheck {
  const byRequest = new Map<string, Exchange[]>()
  for (const e of exchanges) {
    const key = sameRequest(e)
    const list = byRequest.get(key)
    if (list === undefined) byRequest.set(key, [e])
    else list.push(e)
  }
  const result: RetryAfterCheck = { checked: 0, violations: [], shortestWaitMs: undefined }
  for (const list of byRequest.values()) {
    list.sort((a, b) => a.arrived - b.arrived)
    list.forEach((e, i) => {
      if (e.outcome !== 429 || e.retryAfter === undefined) return
      const next = list[i + 1]
      if (next === undefined) return
      result.checked++
      const wait = next.arrived - (e.answered ?? e.ended)
      const asked = Number(e.retryAfter) * 1000
      result.shortestWaitMs = Math.min(result.shortestWaitMs ?? Infinity, wait)
      if (wait + slackMs < asked) result.violations.push({ url: e.url, earlyByMs: asked - wait })
    })
  }
  return result
}

/** Current RSS (VmRSS) of a live process in MB; undefined once it has exited. */
export function rssOf(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] === undefined ? undefined : Math.round(Number(match[1]) / 1024)
  } catch {
    return undefined
  }
}

export interface Sampler<T> {
  samples: T[]
  stop(): T[]
}

/** Calls `probe` every `everyMs` (and once at once) until stopped; keeps what it returns. */
export function sample<T>(everyMs: number, probe: () => T | undefined | Promise<T | undefined>): Sampler<T> {
  const samples: T[] = []
  let stopped = false
  const tick = async (): Promise<void> => {
    if (stopped) return
    try {
      const value = await probe()
      if (value !== undefined && !stopped) samples.push(value)
    } catch {
      // a scrape racing the process's exit: skip the sample
    }
  }
  void tick()
  const timer = setInterval(() => void tick(), everyMs)
  return {
    samples,
    stop() {
      stopped = true
      clearInterval(timer)
      return samples
    },
  }
}
