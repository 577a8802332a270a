// A transport that fails must cost the app one warning per distinct failure, not one per log call,
// and a reader of standard output that goes away (`| head`) must not fail a logx/file transport
// at all (as with logx.destination(), output ends quietly).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import logx from 'logx'
import { describe, expect, it } from 'vitest'

const fixtures = join(__dirname, '..', 'fixtures')

describe('transport failures seen by the app', () => {
  it('warns once per distinct failure, however many lines follow', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error & { code?: string }): void => {
      if (warning.code === 'LOGX_TRANSPORT_FAILED') warnings.push(warning.message)
    }
    process.on('warning', onWarning)
    try {
      const logger = logx({ transport: { target: join(fixtures, 'transports', 'crash-on-write.js') } })
      const stream = (logger as unknown as Record<symbol, NodeJS.EventEmitter>)[
        logx.symbols.streamSym
      ] as NodeJS.EventEmitter
      // Not events.once(): it would listen for 'error' too, and the app here has no listener.
      const closed = new Promise((resolve) => stream.once('close', resolve))
      // The target fails its second write: keep writing, one chunk per turn, until the worker is gone.
      const writer = setInterval(() => logger.info('until it fails'), 5)
      await closed
      clearInterval(writer)
      for (let i = 0; i < 1000; i++) logger.info({ i }, 'after the worker is gone')
      // thread-stream reports each refused write on the next turn; let them all come.
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(warnings.length).toBeGreaterThan(0)
      expect(new Set(warnings).size).toBe(warnings.length)
      expect(warnings.some((w) => w.includes('disk full'))).toBe(true)
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('logx/file on a stdout whose reader went away: no failure, no warning, exit 0', async () => {
    const child = spawn(process.execPath, [join(fixtures, 'drills', 'stress-app.js'), 'epipe', 'transport', '50000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.once('data', () => child.stdout.destroy())
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(stderr).toBe('survived\n')
  })
})
