// The browser build in a real headless Chromium. The compiled CommonJS files are served each wrapped
// in a function(module, exports, require), the way a bundler would, and the page requires browser.js.
// Only the files below are served: a require of anything else (a Node built-in, the Node logger's
// modules) fails the page with "module not bundled", so the build stays free of Node-only imports.

import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { launchChromium, type LaunchedChromium } from '../helpers/browser'

const distDir = join(__dirname, '..', '..', 'dist', 'logx')
const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  browser?: string
  version: string
}

/** The compiled files of the browser build (browser-types.js is imported for types only, never required). */
const BROWSER_MODULES = [
  'version.js',
  'browser-error.js',
  'browser-serializers.js',
  'browser-as-object.js',
  'browser-settings.js',
  'browser-logger.js',
  'browser.js',
]

const page_html = `<!doctype html><html><head><meta charset="utf-8"><script>
  const registry = {}
  window.define = (name, factory) => { registry[name] = { factory, module: undefined } }
  window.require = (name) => {
    const entry = registry[name.replace(/^\\.\\//, '')]
    if (entry === undefined) throw new Error('module not bundled: ' + name)
    if (entry.module === undefined) {
      entry.module = { exports: {} }
      entry.factory(entry.module, entry.module.exports, window.require)
    }
    return entry.module.exports
  }
</script>
${BROWSER_MODULES.map((file) => `<script src="/wrap/${file}"></script>`).join('\n')}
<script>window.logx = require('./browser.js')</script>
</head><body></body></html>`

let server: Server
let browser: LaunchedChromium | undefined
let page: Page
let origin = ''
let consoleMessages: ConsoleMessage[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/'
    if (url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page_html)
      return
    }
    if (url === '/favicon.ico') {
      // Without this the browser logs its own 404 to the console, in among the lines under test.
      res.writeHead(204).end()
      return
    }
    const match = /^\/wrap\/([a-z-]+\.js)$/.exec(url)
    if (match === null) {
      res.writeHead(404).end()
      return
    }
    const file = match[1] as string
    const source = readFileSync(join(distDir, file), 'utf8')
    res
      .writeHead(200, { 'content-type': 'text/javascript' })
      .end(`define(${JSON.stringify(file)}, function (module, exports, require) {\n${source}\n})`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await launchChromium()
  page = browser.page
  page.on('console', (message) => {
    // Only what the page's scripts logged: not the browser's own resource-loading reports.
    if (!message.text().startsWith('Failed to load resource')) consoleMessages.push(message)
  })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(origin + '/')
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
})

beforeEach(() => {
  consoleMessages = []
})

async function consoleOutput(): Promise<Array<{ type: string; args: unknown[] }>> {
  return Promise.all(
    consoleMessages.map(async (message) => ({
      type: message.type(),
      args: await Promise.all(message.args().map((arg) => arg.jsonValue())),
    })),
  )
}

declare const logx: any

describe('browser build', () => {
  it('is what package.json "browser" points at', () => {
    expect(pkg.browser).toBe('./dist/logx/browser.js')
  })

  it('exposes levels, stdSerializers, stdTimeFunctions and version; no Node-only statics', async () => {
    const statics = await page.evaluate(() => ({
      levels: logx.levels,
      serializers: Object.keys(logx.stdSerializers).sort(),
      times: Object.keys(logx.stdTimeFunctions).sort(),
      epoch: typeof logx.stdTimeFunctions.epochTime(),
      iso: logx.stdTimeFunctions.isoTime(),
      nullTime: logx.stdTimeFunctions.nullTime(),
      version: logx.version,
      same: logx.default === logx && logx.logx === logx,
      nodeOnly: [typeof logx.transport, typeof logx.multistream, typeof logx.destination],
    }))
    expect(statics.levels.values).toEqual({ trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 })
    expect(statics.levels.labels[50]).toBe('error')
    expect(statics.serializers).toEqual(expect.arrayContaining(['err', 'req', 'res']))
    expect(statics.times).toEqual(['epochTime', 'isoTime', 'nullTime', 'unixTime'])
    expect(statics.epoch).toBe('number')
    expect(statics.iso).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/)
    expect(statics.nullTime).toBe(false)
    expect(statics.version).toBe(pkg.version)
    expect(statics.same).toBe(true)
    expect(statics.nodeOnly).toEqual(['undefined', 'undefined', 'undefined'])
  })

  it('logs through the console methods by default, fatal on console.error, below-level calls dropped', async () => {
    await page.evaluate(() => {
      const log = logx({ level: 'debug' })
      log.trace('not shown')
      log.debug('dbg %s', 'arg')
      log.info({ a: 1 }, 'hello')
      log.warn('careful')
      log.error('bad')
      log.fatal('worse')
    })
    const out = await consoleOutput()
    expect(out).toEqual([
      { type: 'debug', args: ['dbg %s', 'arg'] },
      { type: 'info', args: [{ a: 1 }, 'hello'] },
      { type: 'warning', args: ['careful'] },
      { type: 'error', args: ['bad'] },
      { type: 'error', args: ['worse'] },
    ])
  })

  it('prepends child bindings as console arguments', async () => {
    await page.evaluate(() => {
      logx().child({ req: 1 }).child({ user: 'u' }).info('hi')
    })
    expect(await consoleOutput()).toEqual([{ type: 'info', args: [{ req: 1 }, { user: 'u' }, 'hi'] }])
  })

  it('asObject logs one pino-like object to the console, with interpolation', async () => {
    await page.evaluate(() => {
      const log = logx({ browser: { asObject: true } })
      log.info({ a: 1 }, 'hello %s #%d %j', 'world', 42, { k: [1] }, 'dropped')
    })
    const [entry] = await consoleOutput()
    expect(entry?.type).toBe('info')
    const obj = entry?.args[0] as Record<string, unknown>
    expect(obj).toMatchObject({ level: 30, a: 1, msg: 'hello world #42 {"k":[1]}' })
    expect(typeof obj.time).toBe('number')
  })

  it('write as a function receives every object (asObject implied), with bindings and children', async () => {
    const got = await page.evaluate(() => {
      const seen: unknown[] = []
      const log = logx({
        level: 'trace',
        timestamp: false,
        messageKey: 'message',
        browser: { write: (o: unknown) => seen.push(o) },
      })
      const child = log.child({ svc: 'api' }, { level: 'warn' })
      const grandchild = child.child({ reqId: 7 })
      log.trace('t')
      child.info('dropped by the child level')
      child.warn({ extra: true }, 'w')
      grandchild.error(new Error('kaput'))
      return {
        seen: JSON.parse(JSON.stringify(seen)),
        bindings: grandchild.bindings(),
        childLevel: child.level,
        rootLevel: log.level,
      }
    })
    expect(got.seen).toEqual([
      { level: 10, message: 't' },
      { level: 40, svc: 'api', extra: true, message: 'w' },
      { level: 50, svc: 'api', reqId: 7, err: {}, message: 'kaput' },
    ])
    expect(got.bindings).toEqual({ svc: 'api', reqId: 7 })
    expect(got.childLevel).toBe('warn')
    expect(got.rootLevel).toBe('trace')
  })

  it('setBindings adds to a logger’s own bindings; children keep theirs', async () => {
    const got = await page.evaluate(() => {
      const seen: unknown[] = []
      const root = logx({ timestamp: false, browser: { write: (o: unknown) => seen.push(o) } })
      const child = root.child({ a: 1 })
      child.setBindings({ b: 2 })
      child.info('after')
      root.info('root %% untouched')
      return { seen, bindings: child.bindings() }
    })
    expect(got.seen).toEqual([
      { level: 30, a: 1, b: 2, msg: 'after' },
      { level: 30, msg: 'root %% untouched' },
    ])
    expect(got.bindings).toEqual({ a: 1, b: 2 })
  })

  it('write as an object routes per level and falls back to the console', async () => {
    const got = await page.evaluate(() => {
      const infos: unknown[] = []
      const errors: unknown[] = []
      const log = logx({
        timestamp: false,
        browser: {
          write: {
            info(o: unknown) {
              infos.push(o)
            },
            error(o: unknown) {
              errors.push(o)
            },
          },
        },
      })
      log.info('i')
      log.error('e')
      log.warn('w')
      return { infos, errors }
    })
    expect(got).toEqual({ infos: [{ level: 30, msg: 'i' }], errors: [{ level: 50, msg: 'e' }] })
    expect(await consoleOutput()).toEqual([{ type: 'warning', args: [{ level: 40, msg: 'w' }] }])
  })

  it('level setter switches methods, rejects unknown levels, and silent disables everything', async () => {
    const got = await page.evaluate(() => {
      const seen: string[] = []
      const log = logx({ browser: { write: (o: { msg: string }) => seen.push(o.msg) } })
      log.debug('hidden')
      log.level = 'debug'
      const debugVal = log.levelVal
      log.debug('shown')
      const enabled = [log.isLevelEnabled('debug'), log.isLevelEnabled('trace'), log.isLevelEnabled('nope')]
      let error: { name: string; code: string; message: string } | undefined
      try {
        log.level = 'loud'
      } catch (err) {
        const e = err as { name: string; code: string; message: string }
        error = { name: e.name, code: e.code, message: e.message }
      }
      log.level = 'silent'
      log.fatal('nothing')
      log.silent('nothing either')
      const disabled = logx({ enabled: false, browser: { write: (o: { msg: string }) => seen.push(o.msg) } })
      disabled.fatal('no')
      const disabled2 = logx({ browser: { disabled: true, write: (o: { msg: string }) => seen.push(o.msg) } })
      disabled2.fatal('no')
      return { seen, debugVal, enabled, error, silentVal: log.levelVal === Infinity }
    })
    expect(got.seen).toEqual(['shown'])
    expect(got.debugVal).toBe(20)
    expect(got.enabled).toEqual([true, false, false])
    expect(got.error).toMatchObject({ name: 'LogxError', code: 'LOGX_ERR_UNKNOWN_LEVEL' })
    expect(got.error?.message).toContain('loud')
    expect(got.silentVal).toBe(true)
  })

  it('supports custom levels, and useOnlyCustomLevels', async () => {
    const got = await page.evaluate(() => {
      const seen: unknown[] = []
      const write = (o: unknown) => seen.push(o)
      const log = logx({ level: 'notice', customLevels: { notice: 35 }, timestamp: false, browser: { write } })
      log.info('below')
      log.notice('custom')
      log.warn('above')
      const only = logx({
        level: 'low',
        customLevels: { low: 1, high: 2 },
        useOnlyCustomLevels: true,
        timestamp: false,
        browser: { write },
      })
      only.high('h')
      return { seen, values: log.levels.values.notice, label: log.levels.labels[35], hasInfo: typeof only.info }
    })
    expect(got.seen).toEqual([
      { level: 35, msg: 'custom' },
      { level: 40, msg: 'above' },
      { level: 2, msg: 'h' },
    ])
    expect(got.values).toBe(35)
    expect(got.label).toBe('notice')
    expect(got.hasInfo).toBe('undefined')
  })

  it('ignores serializers unless browser.serialize asks, and never mutates the logged object', async () => {
    const got = await page.evaluate(() => {
      const seen: unknown[] = []
      const write = (o: unknown) => seen.push(JSON.parse(JSON.stringify(o)))
      const serializers = { user: (u: { name: string }) => u.name, secret: () => '***' }
      const input = { user: { name: 'ann' }, secret: 's3' }
      logx({ timestamp: false, serializers, browser: { write } }).info(input, 'off')
      logx({ timestamp: false, serializers, browser: { write, serialize: true } }).info(input, 'all')
      logx({ timestamp: false, serializers, browser: { write, serialize: ['user'] } }).info(input, 'some')
      const err = new Error('oops')
      logx({ timestamp: false, browser: { write, serialize: true } }).error({ cause: err }, 'plain key')
      logx({ timestamp: false, browser: { write, serialize: true } }).error(err)
      logx({ timestamp: false, browser: { write, serialize: ['!stdSerializers.err'] } }).error(err)
      const child = logx({ timestamp: false, serializers, browser: { write, serialize: true } }).child(
        { user: { name: 'bob' } },
        { serializers: { extra: (x: number) => x * 2 } },
      )
      child.info({ extra: 21 }, 'child')
      return { seen, input }
    })
    expect(got.input).toEqual({ user: { name: 'ann' }, secret: 's3' })
    const [off, all, some, plainKey, serializedErr, rawErr, child] = got.seen as Array<Record<string, any>>
    expect(off).toEqual({ level: 30, user: { name: 'ann' }, secret: 's3', msg: 'off' })
    expect(all).toEqual({ level: 30, user: 'ann', secret: '***', msg: 'all' })
    expect(some).toEqual({ level: 30, user: 'ann', secret: 's3', msg: 'some' })
    expect(plainKey?.msg).toBe('plain key')
    expect(serializedErr?.err).toMatchObject({ type: 'Error', message: 'oops' })
    expect(serializedErr?.err.stack).toContain('oops')
    expect(serializedErr?.msg).toBe('oops')
    expect(rawErr?.err).toEqual({})
    expect(child).toEqual({ level: 30, user: 'bob', extra: 42, msg: 'child' })
  })

  it('uses the timestamp option and a level formatter', async () => {
    const got = await page.evaluate(() => {
      const seen: unknown[] = []
      const log = logx({
        timestamp: logx.stdTimeFunctions.unixTime,
        browser: {
          write: (o: unknown) => seen.push(o),
          formatters: { level: (label: string) => ({ severity: label }) },
        },
      })
      log.warn('w')
      return seen
    })
    const [entry] = got as Array<Record<string, unknown>>
    expect(entry).toMatchObject({ severity: 'warn', msg: 'w' })
    expect(entry?.level).toBeUndefined()
    expect(Math.abs((entry?.time as number) - Date.now() / 1000)).toBeLessThan(3600)
  })

  it('calls onChild, exposes serializers by symbol, and accepts (ignores) a destination argument', async () => {
    const got = await page.evaluate(() => {
      const children: unknown[] = []
      const ser = { a: (x: unknown) => x }
      const log = logx({ serializers: ser, onChild: (c: unknown) => children.push(c) }, { write() {} })
      const child = log.child({ x: 1 })
      return {
        called: children.length === 1 && children[0] === child,
        bySymbol: Object.keys(child[Symbol.for('logx.serializers')]),
        chain: typeof log.on('level-change', () => {}).info,
        flush: log.flush(),
      }
    })
    expect(got).toEqual({ called: true, bySymbol: ['a'], chain: 'function', flush: undefined })
  })
})
