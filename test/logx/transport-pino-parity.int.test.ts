// logx.transport() called directly, beside pino.transport(): what pino refuses at the call throws
// pino's message in logx too, and what can only fail in the worker (a missing file, a module that is
// not a target, a target that throws, a worker that exits) is an 'error' event on the returned
// stream in both, followed by 'close'; a write after that reports again.
import { join } from 'node:path'
import logx from 'logx'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { suiteTempDir } from '../helpers/temp-dir'

const fixture = (name: string): string => join(__dirname, '..', 'fixtures', 'transports', name)
const tmp = suiteTempDir('transport-parity')

function thrown(fn: () => unknown): Error | undefined {
  try {
    fn()
  } catch (err) {
    return err as Error
  }
  return undefined
}

type Options = Parameters<typeof pino.transport>[0]

describe('a call pino refuses throws the same message', () => {
  const cases: Array<[string, Options]> = [
    [
      'target with targets',
      { target: 'pino-pretty', targets: [{ target: 'pino-pretty', options: {} }] } as unknown as Options,
    ],
    ['a module name that resolves nowhere', { target: 'no-such-transport-module' }],
    ['such a name among targets', { targets: [{ target: 'no-such-transport-module', options: {} }] }],
    ['such a name in a pipeline', { pipeline: [{ target: 'no-such-transport-module' }] }],
  ]
  it.each(cases)('%s', (_, options) => {
    const fromPino = thrown(() => pino.transport(options))
    const fromLogx = thrown(() => logx.transport(options as logx.TransportOptions))
    expect(fromPino).toBeInstanceOf(Error)
    expect(fromLogx).toBeInstanceOf(logx.LogxError)
    expect(fromLogx?.message).toBe(fromPino?.message)
  })

  it.each([
    [
      'the transport option with a destination argument',
      () => pino({ transport: { target: 'pino/file' } }, join(tmp, 'p.log') as never),
      () => logx({ transport: { target: 'logx/file' } }, join(tmp, 'l.log')),
    ],
    [
      'a stream as the transport option',
      () => pino({ transport: pino.destination(join(tmp, 'p.log')) as never }),
      () => logx({ transport: logx.destination(join(tmp, 'l.log')) as never }),
    ],
    [
      'targets with a custom level formatter',
      () =>
        pino({
          formatters: { level: (label) => ({ level: label }) },
          transport: { targets: [{ target: 'pino/file', options: {} }] },
        }),
      () =>
        logx({
          formatters: { level: (label) => ({ level: label }) },
          transport: { targets: [{ target: 'logx/file' }] },
        }),
    ],
  ])('the factory: %s', (_, withPino, withLogx) => {
    const fromPino = thrown(withPino)
    const fromLogx = thrown(withLogx)
    expect(fromPino).toBeInstanceOf(Error)
    expect(fromLogx).toBeInstanceOf(logx.LogxError)
    expect(fromLogx?.message).toBe(fromPino?.message)
  })
})

interface Observed {
  first: Error
  afterClose: Error
  acceptedAfterClose: boolean
}

/** Waits for the stream to fail and close, then writes once more and takes the error that follows. */
async function observe(stream: NodeJS.EventEmitter & { write(line: string): boolean }): Promise<Observed> {
  const errors: Error[] = []
  stream.on('error', (err: Error) => errors.push(err))
  // A target that fails only when written to gets one line once it is ready.
  stream.once('ready', () => stream.write('{"level":30,"msg":"first"}\n'))
  // Not events.once(): it rejects on the 'error' this test waits for.
  await new Promise((resolve) => stream.once('close', resolve))
  if (errors.length === 0) await new Promise((resolve) => stream.once('error', resolve))
  const first = errors[0] as Error
  const late = new Promise<Error>((resolve) => stream.once('error', resolve))
  const acceptedAfterClose = stream.write('{"level":30,"msg":"late"}\n')
  return { first, afterClose: await late, acceptedAfterClose }
}

describe('a failure after the call is an error event on the stream, as in pino', () => {
  const cases: Array<[string, () => Options, RegExp, RegExp]> = [
    [
      'a target file that does not exist',
      () => ({ target: join(tmp, 'missing.js') }),
      /Cannot find module/,
      /Cannot find module .*missing\.js/,
    ],
    [
      'such a file among targets',
      () => ({ targets: [{ target: join(tmp, 'missing.js'), options: {} }] }),
      /Cannot find module/,
      /Cannot find module .*missing\.js/,
    ],
    [
      'a module that does not export a function',
      () => ({ target: fixture('not-a-function.js') }),
      /not a function/,
      /not-a-function\.js.* must have a default export/,
    ],
    [
      'a target that throws while it starts',
      () => ({ target: fixture('crash-on-start.js') }),
      /cannot reach the log service/,
      /crash-on-start\.js.*cannot reach the log service/,
    ],
    [
      'a worker that exits',
      () => ({ target: fixture('exit-on-write.js') }),
      /the worker thread exited/,
      /exit-on-write\.js.*the worker thread exited/,
    ],
  ]

  it.each(cases)('%s', async (_, options, pinoSays, logxSays) => {
    let fromPino: ReturnType<typeof pino.transport> | undefined
    let fromLogx: logx.TransportStream | undefined
    expect(() => (fromPino = pino.transport(options()))).not.toThrow()
    expect(() => (fromLogx = logx.transport(options() as logx.TransportOptions))).not.toThrow()
    const [seenByPino, seenByLogx] = await Promise.all([observe(fromPino as never), observe(fromLogx as never)])

    expect(seenByPino.first.message).toMatch(pinoSays)
    expect(seenByLogx.first).toBeInstanceOf(logx.LogxError)
    expect((seenByLogx.first as Error & { code?: string }).code).toBe('LOGX_ERR_TRANSPORT_FAILED')
    expect(seenByLogx.first.message).toMatch(logxSays)

    for (const seen of [seenByPino, seenByLogx]) {
      expect(seen.acceptedAfterClose).toBe(false)
      expect(seen.afterClose.message).toMatch(/the worker has exited/)
    }
  })
})

describe('a worker whose own entry file is missing (a bundle without its worker files)', () => {
  it('is an error event on the stream, where pino lets the Worker error end the app', async () => {
    const globals = globalThis as { __bundlerPathsOverrides?: Record<string, string> }
    globals.__bundlerPathsOverrides = { 'thread-stream-worker': join(tmp, 'no-worker.js') }
    let stream: logx.TransportStream
    try {
      stream = logx.transport({ target: 'logx/file', options: { destination: join(tmp, 'never.log') } })
    } finally {
      delete globals.__bundlerPathsOverrides
    }
    const seen = await observe(stream)
    expect(seen.first).toBeInstanceOf(logx.LogxError)
    expect(seen.first.message).toMatch(/Cannot find module .*no-worker\.js/)
    expect(seen.afterClose.message).toMatch(/the worker has exited/)
  })
})
