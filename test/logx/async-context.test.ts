// asyncContext: bindings from an AsyncLocalStorage store on every line logged while it is active,
// with no child logger passed around (pino#1994, pino#1599). CommonJS here, ESM in a child process.
import { describe, expect, it } from 'vitest'
import { AsyncLocalStorage } from 'node:async_hooks'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import logx from 'logx'
import { createSink } from '../helpers/sink'
import { tempDir } from '../helpers/temp-dir'

const quiet = { base: null, timestamp: false }
const root = resolve(__dirname, '../..')

describe('asyncContext', () => {
  it("merges the active store into every line, after the logger's bindings and before the call's own", async () => {
    const storage = new AsyncLocalStorage<Record<string, unknown>>()
    const sink = createSink()
    const logger = logx({ ...quiet, base: {}, name: 'api', asyncContext: { storage } }, sink)
    const handle = async (reqId: string): Promise<void> => {
      logger.info('received')
      await new Promise((resolve) => setImmediate(resolve))
      logger.child({ module: 'db' }).warn({ rows: 3 }, 'queried')
    }
    await Promise.all([
      storage.run({ reqId: 'r-1', user: 'ann' }, () => handle('r-1')),
      storage.run({ reqId: 'r-2', tenant: 't' }, () => handle('r-2')),
    ])
    logger.info('outside any request')
    expect(sink.lines).toEqual([
      '{"level":30,"name":"api","reqId":"r-1","user":"ann","msg":"received"}\n',
      '{"level":30,"name":"api","reqId":"r-2","tenant":"t","msg":"received"}\n',
      '{"level":40,"name":"api","module":"db","reqId":"r-1","user":"ann","rows":3,"msg":"queried"}\n',
      '{"level":40,"name":"api","module":"db","reqId":"r-2","tenant":"t","rows":3,"msg":"queried"}\n',
      '{"level":30,"name":"api","msg":"outside any request"}\n',
    ])
  })

  it('sees a store changed after it was entered (a user set once authenticated)', () => {
    const storage = new AsyncLocalStorage<Record<string, unknown>>()
    const sink = createSink()
    const logger = logx({ ...quiet, asyncContext: { storage } }, sink)
    storage.run({ reqId: 'r-1' }, () => {
      logger.info('before auth')
      storage.getStore()!.user = 'ann'
      logger.info('after auth')
    })
    expect(sink.records().map(({ msg, ...rest }) => rest)).toEqual([
      { level: 30, reqId: 'r-1' },
      { level: 30, reqId: 'r-1', user: 'ann' },
    ])
  })

  it('bindings(store) picks the bindings out of a richer store', () => {
    const storage = new AsyncLocalStorage<{ request: { id: string; secretBody: string }; user?: string }>()
    const sink = createSink()
    const logger = logx(
      { ...quiet, asyncContext: { storage, bindings: (store) => ({ reqId: store.request.id, user: store.user }) } },
      sink,
    )
    storage.run({ request: { id: 'r-9', secretBody: 'x' } }, () => logger.info('picked'))
    expect(sink.last()).toEqual({ level: 30, reqId: 'r-9', msg: 'picked' })
  })

  it("applies serializers and redaction to the store's bindings, as to a child's", () => {
    const storage = new AsyncLocalStorage<Record<string, unknown>>()
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        asyncContext: { storage },
        serializers: { user: (u: any) => u.id },
        redact: ['token', 'session.key'],
      },
      sink,
    )
    storage.run({ user: { id: 7, email: 'a@b' }, token: 'secret-token', session: { key: 'secret-key', id: 's' } }, () =>
      logger.info('x'),
    )
    expect(sink.lines[0]).not.toContain('secret')
    expect(sink.last()).toEqual({
      level: 30,
      user: 7,
      token: '[Redacted]',
      session: { key: '[Redacted]', id: 's' },
      msg: 'x',
    })
  })

  it('a store that is not an object, or a selector that throws, costs the context and not the line', () => {
    const storage = new AsyncLocalStorage<unknown>()
    const sink = createSink()
    const logger = logx(
      {
        ...quiet,
        asyncContext: {
          storage,
          bindings: (store: any) =>
            store === 'boom'
              ? (() => {
                  throw new Error('selector broke')
                })()
              : store,
        },
      },
      sink,
    )
    storage.run('just a string', () => logger.info('a'))
    storage.run('boom', () => logger.info('b'))
    storage.run(new Map([['k', 'v']]), () => logger.info('c'))
    expect(sink.records()).toEqual([
      { level: 30, msg: 'a' },
      { level: 30, msg: 'b' },
      { level: 30, msg: 'c' },
    ])
  })

  it('leaves lines, bindings() and a logger without the option untouched', () => {
    const storage = new AsyncLocalStorage<Record<string, unknown>>()
    const sink = createSink()
    const withContext = logx({ ...quiet, asyncContext: { storage } }, sink).child({ a: 1 })
    const without = logx(quiet, sink)
    storage.run({ reqId: 'r' }, () => {
      expect(withContext.bindings()).toEqual({ a: 1 })
      without.info('no option')
    })
    expect(sink.last()).toEqual({ level: 30, msg: 'no option' })
  })

  it('refuses a malformed option, naming it', () => {
    expect(() => logx({ asyncContext: {} as any })).toThrow('asyncContext.storage: expected an AsyncLocalStorage')
    expect(() => logx({ asyncContext: { storage: new AsyncLocalStorage(), bindings: 'reqId' as any } })).toThrow(
      'asyncContext.bindings: expected a function',
    )
    expect(() => logx({ asyncContext: new AsyncLocalStorage() as any })).toThrow('asyncContext.storage')
  })

  it("works the same from an ESM app (the package's import entry)", () => {
    const dir = tempDir('async-context', { parent: root })
    const file = join(dir, 'app.mjs')
    writeFileSync(
      file,
      `import { AsyncLocalStorage } from 'node:async_hooks'
       import logx from 'logx'
       const storage = new AsyncLocalStorage()
       const logger = logx({ base: null, timestamp: false, asyncContext: { storage } })
       await storage.run({ reqId: 'esm-1' }, async () => {
         await new Promise((resolve) => setTimeout(resolve, 1))
         logger.info('from esm')
       })`,
    )
    const out = execFileSync(process.execPath, [file], { cwd: root, encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual({ level: 30, reqId: 'esm-1', msg: 'from esm' })
  })
})
