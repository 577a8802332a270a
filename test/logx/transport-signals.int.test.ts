// SIGTERM and SIGINT with no listener end a Node process without 'exit', so a transport's worker
// used to die with whatever its targets still held (an alert in group_wait, an outbox not yet
// drained). logx now ends the worker first and re-raises the signal, unless the app listens for the
// signal itself or opts out with `flushOnSignal: false`.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { suiteTempDir } from '../helpers/temp-dir'

const app = join(__dirname, '..', 'fixtures', 'transports', 'apps', 'signal-app.js')
const tmp = suiteTempDir('signals')
let counter = 0

async function signalApp(
  mode: string,
  signal: NodeJS.Signals,
): Promise<{ lines: string[]; code: number | null; signal: string | null; stdout: string }> {
  const file = join(tmp, `${++counter}-${mode}.log`)
  const child = spawn(process.execPath, [app, file, mode], { stdio: ['ignore', 'pipe', 'inherit'] })
  let stdout = ''
  const exited = once(child, 'exit')
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        if (stdout.includes('logged\n')) resolve()
      })
      child.once('exit', () => reject(new Error(`app exited before logging: ${stdout}`)))
    })
    child.kill(signal)
    const [code, by] = (await exited) as [number | null, NodeJS.Signals | null]
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []
    return { lines, code, signal: by, stdout }
  } finally {
    child.kill('SIGKILL')
  }
}

describe('transport on SIGTERM / SIGINT (child processes)', () => {
  it.concurrent.each(['SIGTERM', 'SIGINT'] as const)(
    'ends the worker on %s, then dies of that signal',
    async (signal) => {
      const result = await signalApp('default', signal)
      expect(result.lines.map((l) => JSON.parse(l).i)).toEqual([0, 1, 2])
      expect({ code: result.code, signal: result.signal }).toEqual({ code: null, signal })
    },
  )

  it.concurrent.each(['own-listener', 'own-once-listener'])(
    'leaves the signal to an app that listens for it (%s; its process.exit still flushes)',
    async (mode) => {
      const result = await signalApp(mode, 'SIGTERM')
      expect(result.stdout).toContain('app handler')
      expect(result.code).toBe(0)
      expect(result.lines).toHaveLength(3)
    },
  )

  it.concurrent(
    'flushOnSignal: false leaves the signals alone (the worker dies with the process, as in pino)',
    async () => {
      const result = await signalApp('opt-out', 'SIGTERM')
      expect(result.signal).toBe('SIGTERM')
      expect(result.lines).toEqual([])
    },
  )
})
