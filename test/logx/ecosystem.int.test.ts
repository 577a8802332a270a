// pino's ecosystem driven with a logx logger and with a pino logger, side by side: pino-http (with and
// without customProps) and fastify v5 on real HTTP servers on 127.0.0.1, pino-pretty as a CLI fed by a
// child process and as a transport. The lines must be the same, byte for byte, once the values that
// differ between two runs (time, pid, hostname, response time, client port, server port) are masked.
import { describe, expect, it, onTestFinished } from 'vitest'
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pino from 'pino'
import pinoHttp from 'pino-http'
import Fastify from 'fastify'
import logx from 'logx'
import { tempDir } from '../helpers/temp-dir'

const root = resolve(__dirname, '../..')
const libraries = [
  ['pino', pino],
  ['logx', logx],
] as const

/** A destination that keeps lines and lets a test await the one it expects. */
function createWaitingSink(): {
  write(line: string): boolean
  lines: string[]
  until(test: (lines: string[]) => boolean): Promise<void>
} {
  const lines: string[] = []
  let waiter: { test: (lines: string[]) => boolean; resolve: () => void } | undefined
  return {
    lines,
    write(line: string) {
      lines.push(line)
      if (waiter !== undefined && waiter.test(lines)) waiter.resolve()
      return true
    },
    until(test) {
      if (test(lines)) return Promise.resolve()
      return new Promise<void>((resolve) => {
        waiter = { test, resolve }
      })
    },
  }
}

/** Masks what differs from run to run; everything else, key order included, must match. */
function mask(line: string): string {
  return line
    .replace(/"time":\d+/g, '"time":0')
    .replace(/"pid":\d+/g, '"pid":0')
    .replace(/"hostname":"[^"]*"/g, '"hostname":"h"')
    .replace(/"(responseTime|took)":[\d.]+/g, '"$1":0')
    .replace(/"remotePort":\d+/g, '"remotePort":0')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
}

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // A fixed Host header and no keep-alive agent: the request is the same for both servers.
    request(
      { host: '127.0.0.1', port, path, agent: false, headers: { host: 'example.test', 'x-request': 'r' } },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
      },
    )
      .on('error', reject)
      .end()
  })
}

async function listen(server: ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return (server.address() as AddressInfo).port
}

describe('pino-http', () => {
  async function serve(factory: (options: object, dest: object) => any, httpOptions: object): Promise<string[]> {
    const sink = createWaitingSink()
    const logger = factory({}, sink)
    const middleware = pinoHttp({ logger, ...httpOptions })
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      middleware(req, res)
      if (req.url === '/fail') {
        res.statusCode = 500
        res.end('failed')
        return
      }
      req.log.info({ step: 'handler' }, 'handling %s', req.url)
      res.setHeader('x-served-by', 'test')
      res.end('ok')
    })
    const port = await listen(server)
    expect(await get(port, '/items?q=1')).toBe(200)
    await sink.until((lines) => lines.length >= 2)
    expect(await get(port, '/fail')).toBe(500)
    await sink.until((lines) => lines.length >= 3)
    // The 500's error is made inside pino-http, so its stack is the same for both.
    return sink.lines.map(mask)
  }

  const variants: Array<[string, object]> = [
    ['without customProps', {}],
    [
      'with customProps as a function (pino-http calls logger[stringifySym])',
      { customProps: (req: IncomingMessage) => ({ user: 'ann', route: req.url }) },
    ],
    ['with customProps as an object', { customProps: { tenant: 't-1' } }],
    [
      'with quietReqLogger and custom attribute keys',
      {
        quietReqLogger: true,
        customAttributeKeys: { req: 'request', responseTime: 'took' },
        customProps: { tenant: 't-1' },
      },
    ],
  ]
  for (const [title, httpOptions] of variants) {
    it(`${title}: the same lines`, async () => {
      const [expected, actual] = [await serve(pino as any, httpOptions), await serve(logx as any, httpOptions)]
      expect(expected).toHaveLength(3)
      expect(actual).toEqual(expected)
    })
  }
})

describe('fastify v5 with loggerInstance', () => {
  async function serve(factory: (options: object, dest: object) => any): Promise<string[]> {
    const sink = createWaitingSink()
    const app = Fastify({ loggerInstance: factory({}, sink) })
    app.get('/hello/:name', async (request) => {
      request.log.info({ name: (request.params as { name: string }).name }, 'greeting')
      return { hello: 'world' }
    })
    app.get('/boom', async () => {
      throw Object.assign(new Error('boom'), { statusCode: 503 })
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    onTestFinished(() => app.close())
    const { port } = app.server.address() as AddressInfo
    const completed =
      (count: number) =>
      (lines: string[]): boolean =>
        lines.filter((line) => line.includes('"request completed"')).length >= count
    expect(await get(port, '/hello/ann')).toBe(200)
    await sink.until(completed(1))
    expect(await get(port, '/boom')).toBe(503)
    await sink.until(completed(2))
    return sink.lines.map(mask)
  }

  it('listening, request, handler, error and response lines are the same', async () => {
    const [expected, actual] = [await serve(pino as any), await serve(logx as any)]
    expect(expected.length).toBeGreaterThanOrEqual(7)
    expect(actual).toEqual(expected)
  })
})

describe('pino-pretty', () => {
  // The same program for both libraries: the name has the same length, so stacks match to the column.
  const program = (library: string): string => `
    const lib = require(${JSON.stringify(library)})
    const options = { base: { pid: 4242, hostname: 'host' }, timestamp: () => ',"time":1757512800123', level: 'debug', customLevels: { notice: 35 } }
    const logger = lib(process.argv[2] ? { ...options, transport: { target: 'pino-pretty', options: { destination: process.argv[2], colorize: false } } } : options)
    logger.info('hello world')
    logger.debug({ user: { id: 7, roles: ['a', 'b'] } }, 'with an object')
    logger.notice('a custom level')
    logger.child({ reqId: 'r-1' }).warn('from a child')
    logger.error(new Error('boom'), 'an error')
    logger.info({ msg: 'object message', n: null, s: 'multi\\nline' })
  `

  function run(command: string, args: string[], input?: NodeJS.ReadableStream): Promise<string> {
    const child = spawn(command, args, {
      cwd: root,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'],
    })
    if (input !== undefined) input.pipe(child.stdin!)
    let out = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
    })
    return new Promise((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}`))))
    })
  }

  it("as a CLI: logx output piped through node_modules/.bin/pino-pretty reads as pino's", async () => {
    const outputs: string[] = []
    for (const [name] of libraries) {
      const producer = spawn(process.execPath, ['-e', program(name)], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      outputs.push(
        await run(
          join(root, 'node_modules/.bin/pino-pretty'),
          ['--no-colorize', '--customLevels', 'notice:35'],
          producer.stdout,
        ),
      )
    }
    const [expected, actual] = outputs as [string, string]
    expect(expected).toContain('NOTICE')
    expect(expected).toContain('reqId: "r-1"')
    expect(actual).toBe(expected)
  })

  it('as a transport: the same pretty file from both', async () => {
    const dir = tempDir('pretty', { parent: root })
    const outputs: string[] = []
    for (const [name] of libraries) {
      // One script path for both, so that the error's stack names the same file.
      const script = join(dir, 'app.cjs')
      const file = join(dir, `${name}.log`)
      writeFileSync(script, program(name))
      await run(process.execPath, [script, file])
      outputs.push(readFileSync(file, 'utf8'))
    }
    const [expected, actual] = outputs as [string, string]
    expect(expected).toContain('reqId: "r-1"')
    expect(actual).toBe(expected)
  })
})
