// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import logx from 'logx'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { SandboxInfo } from '../../../agent/sandbox'
import { suiteTempDir } from '../../helpers/temp-dir'

export type Logger = ReturnType<typeof logx>
export type RecordKind = 'sms' | 'chat' | 'mail' | 'voice' | 'lead' | 'activity'

/** The transport stream behind a logger made with the `transport` option. */
export function streamOf(logger: Logger): NodeJS.EventEmitter & { end(): void; ready?: boolean } {
  return (logger as any)[logx.symbols.streamSym]
}

/** Ends the logger's transport and resolves once the worker closed every target (outbox drained). */
export async function closeLogger(logger: Logger): Promise<void> {
  const stream = streamOf(logger)
  const closed = once(stream, 'close')
  if (stream.ready === false) await once(stream, 'ready')
  stream.end()
  await closed
}

export interface RemoteSandbox {
  info: SandboxInfo
  apiKey: string
  activityToken: string
  records(kind: RecordKind): Promise<Record<string, unknown>[]>
  /** Polls until `kind` holds at least `count` records, within a bounded deadline. */
  waitFor(kind: RecordKind, count: number, deadlineMs?: number): Promise<Record<string, unknown>[]>
  reset(): Promise<void>
  fault(rule: Record<string, unknown>): Promise<void>
  close(): Promise<void>
}

/** A sandbox in a child process (see the fixture for why), driven through its control API. */
export async function startRemoteSandbox(): Promise<RemoteSandbox> {
  const child: ChildProcess = fork(
    join(__dirname, '..', '..', 'fixtures', 'transports', 'apps', 'sandbox-process.js'),
    { stdio: 'inherit' },
  )
  const [message] = (await once(child, 'message')) as [{ info: SandboxInfo; apiKey: string; activityToken: string }]
  const base = message.info.baseUrl
  const records = async (kind: RecordKind): Promise<Record<string, unknown>[]> => {
    const res = await fetch(`${base}/_sandbox/records?kind=${kind}&limit=5000`)
    const body = (await res.json()) as { records: { record: Record<string, unknown> }[] }
    return body.records.map((r) => r.record).reverse()
  }
  return {
    ...message,
    records,
    async waitFor(kind, count, deadlineMs = 15_000) {
      const until = Date.now() + deadlineMs
      for (;;) {
        const found = await records(kind)
        if (found.length >= count || Date.now() > until) return found
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },
    async reset() {
      await fetch(`${base}/_sandbox/reset`, { method: 'POST' })
    },
    async fault(rule) {
      await fetch(`${base}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule),
      })
    },
    async close() {
      const exited = once(child, 'exit')
      child.disconnect()
      await exited
    },
  }
}

/**
 * For a whole test file: a sandbox in its own process, started before the first test, reset before
 * each one (unless `resetEach` is false) and closed after the last, and a temp directory removed then.
 */
export function useRemoteSandbox(
  tmpPrefix: string,
  options: { resetEach?: boolean } = {},
): { readonly sandbox: RemoteSandbox; readonly tmp: string } {
  let started: RemoteSandbox | undefined
  const tmp = suiteTempDir(tmpPrefix.replace(/^logx-|-$/g, ''))
  beforeAll(async () => {
    started = await startRemoteSandbox()
  })
  afterAll(async () => {
    await started?.close()
  })
  if (options.resetEach !== false) {
    beforeEach(async () => {
      await started?.reset()
    })
  }
  return {
    get sandbox() {
      if (started === undefined) throw new Error('the sandbox is started in beforeAll')
      return started
    },
    tmp,
  }
}

export function apiOptions(sandbox: RemoteSandbox): Record<string, string> {
  return {
    messagingUrl: sandbox.info.baseUrl,
    apiKey: sandbox.apiKey,
    leadWebhook: sandbox.info.leadWebhookUrl,
    activityWebhook: sandbox.info.activityWebhookUrl,
    activityToken: sandbox.activityToken,
  }
}
