import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { LogxError, LogxErrorCodes } from '../../dist/logx/errors.js'
import { transport, type TransportOptions, type TransportStream } from '../../dist/logx/transport.js'
import { pollUntil } from '../helpers/poll-until'
import { suiteTempDir } from '../helpers/temp-dir'

const run = promisify(execFile)
const fixtures = join(__dirname, '..', 'fixtures', 'transports')
const fixture = (name: string): string => join(fixtures, name)
const tmp = suiteTempDir('transport')
let counter = 0
const tmpFile = (name: string): string => join(tmp, `${++counter}-${name}`)

function line(level: number, msg: string, extra = ''): string {
  return `{"level":${level},"time":1700000000000,"pid":1,"hostname":"h","msg":"${msg}"${extra}}\n`
}

/** Reads a file's lines; missing file means no lines. */
function readLines(file: string): string[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
}

/** Ends the transport and resolves once its worker has closed every target. */
async function finish(stream: TransportStream): Promise<void> {
  const closed = once(stream, 'close')
  if (!stream.ready) await once(stream, 'ready')
  stream.end()
  await closed
}

function open(options: TransportOptions): TransportStream {
  const stream = transport(options)
  stream.on('error', () => {})
  return stream
}

describe('single targets', () => {
  it('logx/file writes to a file, creating its directory with mkdir', async () => {
    const file = join(tmp, 'deep', 'er', 'app.log')
    const stream = open({ target: 'logx/file', options: { destination: file, mkdir: true } })
    stream.write(line(30, 'one'))
    stream.write(line(40, 'two'))
    await finish(stream)
    expect(readLines(file).map((l) => JSON.parse(l).msg)).toEqual(['one', 'two'])
  })

  it('logx/file appends by default and truncates with append: false', async () => {
    const file = tmpFile('append.log')
    for (const append of [true, true, false]) {
      const stream = open({ target: 'logx/file', options: { destination: file, append } })
      stream.write(line(30, `append=${append}`))
      await finish(stream)
    }
    expect(readLines(file).map((l) => JSON.parse(l).msg)).toEqual(['append=false'])
  })

  it('logx/file defaults to standard output', async () => {
    const script = `
      const { transport } = require(${JSON.stringify(join(__dirname, '..', '..', 'dist', 'logx', 'transport.js'))})
      const t = transport({ target: 'logx/file' })
      t.write('{"level":30,"msg":"to stdout"}\\n')
    `
    const { stdout } = await run(process.execPath, ['-e', script])
    expect(stdout).toBe('{"level":30,"msg":"to stdout"}\n')
  })

  it('loads CommonJS, ESM and transpiled (double default) targets by absolute path and file URL', async () => {
    for (const target of [
      fixture('collect-cjs.js'),
      fixture('collect-esm.mjs'),
      pathToFileURL(fixture('double-default.cjs')).href,
    ]) {
      const file = tmpFile('kind.log')
      const stream = open({ target, options: { destination: file } })
      stream.write(line(30, target))
      await finish(stream)
      expect(readLines(file)).toHaveLength(1)
    }
  })

  it('resolves relative targets from the calling file, or from the caller option', async () => {
    const file = tmpFile('relative.log')
    const stream = open({ target: '../fixtures/transports/collect-cjs.js', options: { destination: file } })
    stream.write(line(30, 'relative to the test file'))
    await finish(stream)
    expect(readLines(file)).toHaveLength(1)

    const viaCaller = tmpFile('caller.log')
    const other = open({
      target: './collect-esm.mjs',
      caller: [join(tmp, 'nowhere.js'), fixture('app.js')],
      options: { destination: viaCaller },
    })
    other.write(line(30, 'relative to the caller option'))
    await finish(other)
    expect(readLines(viaCaller)).toHaveLength(1)
  })

  it('resolves a relative target from an ESM app file found on the stack, whatever the cwd', async () => {
    const file = tmpFile('esm-app.log')
    await run(process.execPath, [fixture(join('apps', 'esm-app.mjs')), file], { cwd: tmpdir() })
    expect(readLines(file)).toEqual(['{"level":30,"msg":"from esm"}'])
  })

  it('resolves installed module names: pino/file and pino-pretty work unchanged', async () => {
    const plain = tmpFile('pino-file.log')
    const pretty = tmpFile('pretty.log')
    const a = open({ target: 'pino/file', options: { destination: plain } })
    const b = open({ target: 'pino-pretty', options: { destination: pretty, colorize: false, sync: true } })
    for (const s of [a, b]) {
      s.write(line(30, 'hello pretty'))
      s.write(line(50, 'bad things'))
    }
    await Promise.all([finish(a), finish(b)])
    expect(readLines(plain)).toHaveLength(2)
    const text = readFileSync(pretty, 'utf8')
    expect(text).toMatch(/INFO.*hello pretty/)
    expect(text).toMatch(/ERROR.*bad things/)
  })

  it('runs pino-abstract-transport targets (async iterator)', async () => {
    const file = tmpFile('abstract.log')
    const stream = open({ target: fixture('abstract-upper.mjs'), options: { destination: file } })
    stream.write(line(30, 'quiet'))
    stream.write(line(50, 'loud'))
    await finish(stream)
    expect(readLines(file)).toEqual(['30 QUIET', '50 LOUD'])
  })

  it('lets expectPinoConfig targets read the config message the logger emits', async () => {
    const file = tmpFile('config.log')
    const stream = open({ target: fixture('abstract-config.cjs'), options: { destination: file } })
    stream.emit('message', {
      code: 'PINO_CONFIG',
      config: {
        levels: { labels: { 30: 'info', 35: 'notice' }, values: { info: 30, notice: 35 } },
        messageKey: 'text',
        errorKey: 'err',
      },
    })
    stream.write('{"level":35,"text":"custom key"}\n')
    await finish(stream)
    expect(readLines(file)).toEqual(['notice:custom key'])
  })

  it('sends default config to targets that wait for one when no logger does', async () => {
    const file = tmpFile('default-config.log')
    const stream = open({ target: fixture('abstract-config.cjs'), options: { destination: file } })
    stream.write('{"level":50,"msg":"no logger here"}\n')
    await finish(stream)
    expect(readLines(file)).toEqual(['error:no logger here'])
  })

  it('does not hand a -r preload that creates a transport to its worker', async () => {
    const file = tmpFile('preload.log')
    await run(process.execPath, ['-r', fixture(join('apps', 'preload.js')), '-e', ''], {
      env: { ...process.env, LOGX_PRELOAD_FILE: file },
      timeout: 8000,
    })
    expect(readLines(file)).toEqual(['{"level":30,"msg":"from preload","worker":false}'])
  })

  it('delivers every line of a large burst, in order', async () => {
    const file = tmpFile('burst.log')
    const stream = open({ target: 'logx/file', options: { destination: file } })
    const total = 20_000
    for (let i = 0; i < total; i++) stream.write(line(30, `n${i}`, `,"pad":"${'x'.repeat(200)}"`))
    await finish(stream)
    const lines = readLines(file)
    expect(lines).toHaveLength(total)
    expect(JSON.parse(lines[total - 1] as string).msg).toBe(`n${total - 1}`)
  })

  it('sync: true hands each line to the shared buffer before write() returns', async () => {
    const file = tmpFile('sync.log')
    const stream = open({ target: 'logx/file', options: { destination: file }, sync: true })
    for (let i = 0; i < 1000; i++) stream.write(line(30, `s${i}`))
    await finish(stream)
    expect(readLines(file)).toHaveLength(1000)
  })

  it('flush(cb) reaches every target of a multi-target transport', async () => {
    const a = tmpFile('flush-a.log')
    const b = tmpFile('flush-b.log')
    const stream = open({
      targets: [
        { target: 'logx/file', options: { destination: a, minLength: 4096 } },
        { target: 'logx/file', level: 'error', options: { destination: b, minLength: 4096 } },
      ],
    })
    stream.write(line(50, 'buffered in the worker'))
    await new Promise<void>((resolve, reject) => stream.flush((err?: Error) => (err ? reject(err) : resolve())))
    expect(readLines(a)).toHaveLength(1)
    expect(readLines(b)).toHaveLength(1)
    await finish(stream)
  })

  it('flushSync returns once the worker has taken every line', async () => {
    const file = tmpFile('flush.log')
    const stream = open({ target: 'logx/file', options: { destination: file } })
    await once(stream, 'ready')
    stream.write(line(60, 'fatal'))
    stream.flushSync()
    await pollUntil('the line in the file', () => readLines(file).length === 1)
    await finish(stream)
  })
})

describe('targets and pipelines', () => {
  it('routes by per-target level, default info, with custom levels', async () => {
    const all = tmpFile('all.log')
    const info = tmpFile('info.log')
    const errors = tmpFile('errors.log')
    const notice = tmpFile('notice.log')
    const stream = open({
      targets: [
        { target: 'logx/file', level: 'trace', options: { destination: all } },
        { target: 'logx/file', options: { destination: info } },
        { target: fixture('collect-cjs.js'), level: 'error', options: { destination: errors } },
        { target: 'logx/file', level: 'notice', options: { destination: notice } },
      ],
      levels: { notice: 35 },
    })
    expect(stream[Symbol.for('logx.transport.usesMultistream') as never]).toBe(true)
    // The last write is split across two chunks to check that lines are reassembled.
    stream.write(line(10, 'trace') + line(30, 'info') + line(35, 'notice'))
    stream.write(line(50, 'error') + line(60, 'fatal').slice(0, 10))
    stream.write(line(60, 'fatal').slice(10))
    await finish(stream)
    const msgs = (file: string): string[] => readLines(file).map((l) => JSON.parse(l).msg)
    expect(msgs(all)).toEqual(['trace', 'info', 'notice', 'error', 'fatal'])
    expect(msgs(info)).toEqual(['info', 'notice', 'error', 'fatal'])
    expect(msgs(notice)).toEqual(['notice', 'error', 'fatal'])
    expect(msgs(errors)).toEqual(['error', 'fatal'])
  })

  it('applies the level of a single target when it has one', async () => {
    const file = tmpFile('single-level.log')
    const stream = open({ targets: [{ target: 'logx/file', level: 'warn', options: { destination: file } }] })
    stream.write(line(30, 'info') + line(40, 'warn'))
    await finish(stream)
    expect(readLines(file).map((l) => JSON.parse(l).msg)).toEqual(['warn'])
  })

  it('dedupe sends a line only to the highest matching targets', async () => {
    const out = tmpFile('out.log')
    const err = tmpFile('err.log')
    const stream = open({
      targets: [
        { target: 'logx/file', level: 'debug', options: { destination: out } },
        { target: 'logx/file', level: 'error', options: { destination: err } },
      ],
      dedupe: true,
    })
    stream.write(line(20, 'debug') + line(30, 'info') + line(50, 'error') + line(60, 'fatal'))
    await finish(stream)
    expect(readLines(out).map((l) => JSON.parse(l).msg)).toEqual(['debug', 'info'])
    expect(readLines(err).map((l) => JSON.parse(l).msg)).toEqual(['error', 'fatal'])
  })

  it('routes lines whose level is a label, and delivers lines it cannot parse', async () => {
    const low = tmpFile('low.log')
    const high = tmpFile('high.log')
    const stream = open({
      targets: [
        { target: 'logx/file', level: 'info', options: { destination: low } },
        { target: 'logx/file', level: 'error', options: { destination: high } },
      ],
    })
    stream.write(
      '{"level":"error","msg":"label"}\n{"msg":"no level"}\nplain text line\n{"time":1,"level":30,"msg":"late level"}\n',
    )
    await finish(stream)
    expect(readLines(low)).toHaveLength(4)
    expect(readLines(high)).toEqual(['{"level":"error","msg":"label"}', '{"msg":"no level"}', 'plain text line'])
  })

  it('chains a pipeline: transform steps then a writable', async () => {
    const file = tmpFile('pipeline.log')
    const stream = open({
      pipeline: [
        { target: fixture('add-field-transform.mjs'), options: { name: 'first' } },
        { target: 'logx/file', options: { destination: file } },
      ],
    })
    stream.write(line(30, 'through the pipe'))
    await finish(stream)
    const [only] = readLines(file)
    expect(JSON.parse(only as string)).toMatchObject({ msg: 'through the pipe', step: 'first' })
  })

  it('mixes targets and pipelines, each with its level', async () => {
    const plain = tmpFile('plain.log')
    const piped = tmpFile('piped.log')
    const stream = open({
      targets: [
        { target: 'logx/file', level: 'info', options: { destination: plain } },
        {
          level: 'error',
          pipeline: [
            { target: fixture('add-field-transform.mjs'), options: { name: 'alert' } },
            { target: 'pino-pretty', options: { destination: piped, colorize: false, sync: true } },
          ],
        },
      ],
    })
    stream.write(line(30, 'routine') + line(50, 'page someone'))
    await finish(stream)
    expect(readLines(plain)).toHaveLength(2)
    const pretty = readFileSync(piped, 'utf8')
    expect(pretty).toMatch(/ERROR.*page someone/)
    expect(pretty).toMatch(/step: "alert"/)
    expect(pretty).not.toMatch(/routine/)
  })
})

describe('errors', () => {
  it('rejects unknown modules and malformed options at the call', () => {
    const code = (fn: () => unknown): string | undefined => {
      try {
        fn()
      } catch (err) {
        return err instanceof LogxError ? `${err.code} ${err.path ?? ''}` : `not a LogxError: ${String(err)}`
      }
      return undefined
    }
    expect(code(() => transport({ target: 'no-such-transport-module' }))).toBe(
      `${LogxErrorCodes.TRANSPORT_TARGET_NOT_FOUND} transport.target`,
    )
    expect(code(() => transport({}))).toBe(`${LogxErrorCodes.INVALID_TRANSPORT} target`)
    expect(code(() => transport({ target: 'logx/file', targets: [] }))).toBe(
      `${LogxErrorCodes.INVALID_TRANSPORT} target`,
    )
    expect(code(() => transport({ target: 'logx/file', pipeline: [] }))).toBe(
      `${LogxErrorCodes.INVALID_TRANSPORT} target`,
    )
    expect(code(() => transport({ targets: [], pipeline: [] }))).toBe(`${LogxErrorCodes.INVALID_TRANSPORT} pipeline`)
    expect(code(() => transport({ targets: 'logx/file' as never }))).toBe(`${LogxErrorCodes.INVALID_TRANSPORT} targets`)
    expect(code(() => transport({ pipeline: [] }))).toBe(`${LogxErrorCodes.INVALID_TRANSPORT} pipeline`)
    expect(code(() => transport({ target: 'logx/file', options: { fn: () => 1 } }))).toBe(
      `${LogxErrorCodes.INVALID_TRANSPORT} transport.options`,
    )
    expect(code(() => transport({ targets: [{ target: 'logx/file', level: 'loud' }] }))).toBe(
      `${LogxErrorCodes.INVALID_TRANSPORT} targets[0].level`,
    )
  })

  it('takes an empty targets list, as pino does: lines go nowhere', async () => {
    const stream = transport({ targets: [] })
    const failed = vi.fn()
    stream.on('error', failed)
    await once(stream, 'ready')
    stream.write(line(30, 'dropped'))
    await finish(stream)
    expect(failed).not.toHaveBeenCalled()
  })

  it('surfaces a target that fails to start as an error event, and closes', async () => {
    const stream = transport({ target: fixture('crash-on-start.js') })
    const [err] = await once(stream, 'error')
    expect(err).toBeInstanceOf(LogxError)
    expect(err.code).toBe(LogxErrorCodes.TRANSPORT_FAILED)
    expect(err.message).toContain('cannot reach the log service')
    if (!stream.closed) await once(stream, 'close')
    // Writing after the failure reports again instead of buffering forever.
    expect(stream.write(line(30, 'late'))).toBe(false)
    const [again] = await once(stream, 'error')
    expect(again.message).toMatch(/exited/)
  })

  it('surfaces a target that is not a factory, naming it', async () => {
    const stream = transport({ target: fixture('not-a-function.js') })
    const [err] = await once(stream, 'error')
    expect(err.message).toContain('not-a-function.js')
    expect(err.message).toContain('default export')
  })

  it('surfaces a target that errors while writing', async () => {
    const stream = transport({ target: fixture('crash-on-write.js') })
    await once(stream, 'ready')
    stream.write(line(30, 'fine'))
    stream.flushSync()
    stream.write(line(30, 'fails'))
    const [err] = await once(stream, 'error')
    expect(err.message).toContain('disk full')
    if (!stream.closed) await once(stream, 'close')
  })

  it('a target that throws makes a blocked flushSync fail at once and emits error', async () => {
    const stream = transport({ target: fixture('throw-on-write.js') })
    const failed = once(stream, 'error')
    await once(stream, 'ready')
    stream.write(line(60, 'fatal'))
    expect(() => stream.flushSync()).toThrow(/_flushSync failed/)
    const [err] = await failed
    expect(err.code).toBe(LogxErrorCodes.TRANSPORT_FAILED)
    expect(err.message).toContain('target bug')
  })

  it('an app whose target crashes still exits (no hang at process exit)', async () => {
    const script = `
      const { transport } = require(${JSON.stringify(join(__dirname, '..', '..', 'dist', 'logx', 'transport.js'))})
      const t = transport({ target: ${JSON.stringify(fixture('throw-on-write.js'))} })
      t.on('error', () => {})
      t.once('ready', () => {
        for (let i = 0; i < 100; i++) t.write('{"level":30}\\n')
        process.exit(0)
      })
    `
    // The deadline only turns a hang into a failure; a healthy run takes well under a second.
    const { stdout } = await run(
      process.execPath,
      ['-e', script + ';process.on("exit", () => console.log("exited"))'],
      { timeout: 8000 },
    )
    expect(stdout).toBe('exited\n')
  })

  it('surfaces a failing target among several', async () => {
    const stream = transport({
      targets: [
        { target: 'logx/file', options: { destination: tmpFile('healthy.log') } },
        { target: fixture('crash-on-write.js') },
      ],
    })
    await once(stream, 'ready')
    stream.write(line(30, 'fine') + line(30, 'fails'))
    const [err] = await once(stream, 'error')
    expect(err.message).toContain('disk full')
    if (!stream.closed) await once(stream, 'close')
  })

  it('rejects a writable in the middle of a pipeline', async () => {
    const stream = transport({
      pipeline: [
        { target: fixture('plain-writable.js') },
        { target: 'logx/file', options: { destination: tmpFile('never.log') } },
      ],
    })
    const [err] = await once(stream, 'error')
    expect(err.message).toMatch(/pipeline step 0 .*transform stream/)
  })
})

describe('process exit (child processes)', () => {
  const app = fixture(join('apps', 'exit-app.js'))

  async function runApp(mode: string, count: number): Promise<{ lines: string[]; code: number | null }> {
    const file = tmpFile(`${mode}.log`)
    let code: number | null = 0
    try {
      await run(process.execPath, [app, file, String(count), mode])
    } catch (err) {
      code = (err as { code?: number }).code ?? null
    }
    return { lines: readLines(file), code }
  }

  it.concurrent.each([
    ['exit', 0],
    ['exit-after-ready', 0],
    ['natural', 0],
  ])('delivers every line when the app leaves by %s', async (mode, expected) => {
    const { lines, code } = await runApp(mode, 5000)
    expect(code).toBe(expected)
    expect(lines).toHaveLength(5000)
    expect(JSON.parse(lines[4999] as string).msg).toBe('line 4999')
  })

  it.concurrent('delivers the lines written before an uncaught exception', async () => {
    const { lines, code } = await runApp('throw', 2000)
    expect(code).toBe(1)
    expect(lines).toHaveLength(2000)
  })

  it.concurrent('delivers the final fatal line written (and flushed) by an uncaughtException handler', async () => {
    const { lines, code } = await runApp('fatal-handler', 100)
    expect(code).toBe(1)
    expect(lines).toHaveLength(101)
    expect(JSON.parse(lines[100] as string)).toMatchObject({ level: 60, msg: 'fatal: boom' })
  })

  it.concurrent('honours worker.autoEnd: false (nothing flushed at exit; end() delivers)', async () => {
    const skipped = await runApp('no-autoend', 100)
    expect(skipped.lines).toHaveLength(0)
    const ended = await runApp('no-autoend-end', 100)
    expect(ended.lines).toHaveLength(100)
  })

  it.concurrent('ends the worker when the transport stream is garbage-collected', async () => {
    const file = tmpFile('gc.log')
    const { stdout } = await run(process.execPath, ['--expose-gc', fixture(join('apps', 'gc-app.js')), file])
    expect(stdout).toBe('worker exited\n')
    expect(readLines(file)).toEqual(['{"level":30,"msg":"before gc"}'])
  })
})

describe('through the logger', () => {
  const app = fixture(join('apps', 'logger-app.js'))

  async function loadLogx(): Promise<any> {
    return (await import('logx')).default
  }

  async function runLoggerApp(mode: string, count: number): Promise<{ lines: string[]; code: number | null }> {
    const file = tmpFile(`logger-${mode}.log`)
    let code: number | null = 0
    try {
      await run(process.execPath, [app, file, String(count), mode])
    } catch (err) {
      code = (err as { code?: number }).code ?? null
    }
    return { lines: readLines(file), code }
  }

  it('writes logger lines through a transport stream given as destination', async () => {
    const logx = await loadLogx()
    const file = tmpFile('logger.log')
    const stream = open({ targets: [{ target: 'logx/file', level: 'warn', options: { destination: file } }] })
    const logger = logx({ level: 'trace' }, stream)
    logger.info('filtered in the worker')
    logger.child({ svc: 'api' }).warn({ code: 7 }, 'disk %s', 'low')
    logger.fatal('flushed synchronously')
    await finish(stream)
    const lines = readLines(file).map((l) => JSON.parse(l))
    expect(lines.map((l) => l.msg)).toEqual(['disk low', 'flushed synchronously'])
    expect(lines[0]).toMatchObject({ level: 40, svc: 'api', code: 7 })
  })

  it.concurrent.each([
    ['exit', 0, 3000],
    ['natural', 0, 3000],
    ['fatal', 1, 3001],
  ])('a logging app that leaves by %s delivers every line', async (mode, code, expected) => {
    const result = await runLoggerApp(mode, 3000)
    expect(result.code).toBe(code)
    expect(result.lines).toHaveLength(expected)
    if (mode === 'fatal') {
      expect(JSON.parse(result.lines[3000] as string)).toMatchObject({
        level: 60,
        msg: 'uncaught',
        err: { message: 'boom' },
      })
    }
  })

  // Until the factory wires `transport` these are skipped; the first test below says so loudly.
  const wired = typeof (createRequire(__filename)('logx') as { transport?: unknown }).transport === 'function'

  describe('the transport option (wired by the factory)', () => {
    it('the factory exposes transport and multistream', async () => {
      const logx = await loadLogx()
      expect(typeof logx.transport).toBe('function')
      expect(typeof logx.multistream).toBe('function')
    })

    it.skipIf(!wired)('logx({ transport }) with targets, custom levels and pino-pretty', async () => {
      const logx = await loadLogx()
      const plain = tmpFile('option.log')
      const pretty = tmpFile('option-pretty.log')
      const logger = logx({
        level: 'debug',
        customLevels: { notice: 35 },
        transport: {
          targets: [
            { target: 'logx/file', level: 'notice', options: { destination: plain } },
            { target: 'pino-pretty', level: 'debug', options: { destination: pretty, colorize: false, sync: true } },
          ],
        },
      })
      logger.debug('dbg')
      logger.info('inf')
      logger.notice('custom level')
      logger.error('err')
      const stream = logger[logx.symbols.streamSym]
      await finish(stream)
      expect(readLines(plain).map((l) => JSON.parse(l).msg)).toEqual(['custom level', 'err'])
      expect(readFileSync(pretty, 'utf8')).toMatch(/DEBUG.*dbg[\s\S]*INFO.*inf/)
    })

    it('logx({ transport }) and a destination together throw', async () => {
      const logx = await loadLogx()
      expect(() => logx({ transport: { target: 'logx/file' } }, { write() {} })).toThrow(
        expect.objectContaining({ code: LogxErrorCodes.TRANSPORT_AND_DESTINATION }),
      )
    })

    it.skipIf(!wired)('targets that wait for the logger config get its levels and messageKey', async () => {
      const logx = await loadLogx()
      const file = tmpFile('option-config.log')
      const logger = logx({
        messageKey: 'text',
        customLevels: { notice: 35 },
        transport: { target: fixture('abstract-config.cjs'), options: { destination: file } },
      })
      logger.notice('with config')
      await finish(logger[logx.symbols.streamSym])
      expect(readLines(file)).toEqual(['notice:with config'])
    })

    it.skipIf(!wired)(
      'resolves a target relative to the app file that calls logx() (ESM, through the wrapper)',
      async () => {
        const file = tmpFile('relative-option.log')
        await run(process.execPath, [fixture(join('apps', 'relative-option-app.mjs')), file], { cwd: tmpdir() })
        expect(readLines(file).map((l) => JSON.parse(l).msg)).toEqual(['relative through the option'])
      },
    )

    it.skipIf(!wired).concurrent(
      'ends the worker when a logger built with the option is garbage-collected',
      async () => {
        const file = tmpFile('gc-logger.log')
        const { stdout } = await run(process.execPath, ['--expose-gc', fixture(join('apps', 'gc-logger-app.js')), file])
        expect(stdout).toBe('worker exited\n')
        expect(readLines(file).map((l) => JSON.parse(l).msg)).toEqual(['before gc'])
      },
    )

    it.skipIf(!wired).concurrent.each([
      ['option-exit', 0, 2000],
      ['option-natural', 0, 2000],
      ['option-fatal', 1, 2001],
    ])('an app using the transport option delivers every line (%s)', async (mode, code, expected) => {
      const result = await runLoggerApp(mode, 2000)
      expect(result.code).toBe(code)
      expect(result.lines).toHaveLength(expected)
    })
  })
})
