import { describe, expect, it } from 'vitest'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { once } from 'node:events'
import logx from 'logx'
import { createSink } from '../helpers/sink'
import { tempDir } from '../helpers/temp-dir'

const scenarioScript = resolve(__dirname, '../fixtures/logger/run-scenario.js')

function readLines(file: string): Record<string, any>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
}

function flushed(stream: { flush(cb: (err?: Error | null) => void): void }): Promise<void> {
  return new Promise((resolve, reject) => stream.flush((err) => (err ? reject(err) : resolve())))
}

describe('logx.destination', () => {
  it('writes to a path, creating parent directories with mkdir', async () => {
    const file = join(tempDir('dest'), 'nested', 'deeper', 'app.log')
    const dest = logx.destination({ dest: file, mkdir: true, sync: true })
    logx({ base: null, timestamp: false }, dest).info('to file')
    expect(readFileSync(file, 'utf8')).toBe('{"level":30,"msg":"to file"}\n')
    dest.end()
  })

  it('appends by default and truncates with append: false', () => {
    const file = join(tempDir('dest'), 'app.log')
    writeFileSync(file, 'old\n')
    const appending = logx.destination({ dest: file, sync: true })
    logx({ base: null, timestamp: false }, appending).info('new')
    expect(readFileSync(file, 'utf8')).toBe('old\n{"level":30,"msg":"new"}\n')
    appending.end()
    const truncating = logx.destination({ dest: file, sync: true, append: false })
    logx({ base: null, timestamp: false }, truncating).info('only')
    expect(readFileSync(file, 'utf8')).toBe('{"level":30,"msg":"only"}\n')
    truncating.end()
  })

  it('a string path as the first or second factory argument', async () => {
    const dir = tempDir('dest')
    const first = logx(join(dir, 'a.log'))
    first.info('a')
    const second = logx({ base: null, timestamp: false }, join(dir, 'b.log'))
    second.info('b')
    await flushed(first)
    await flushed(second)
    expect(readLines(join(dir, 'a.log'))[0]!.msg).toBe('a')
    expect(readLines(join(dir, 'b.log'))).toEqual([{ level: 30, msg: 'b' }])
  })

  it('a numeric string is a file descriptor', () => {
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(resolve(__dirname, '../..'))})({ base: null, timestamp: false }, '2').info('to fd 2')`,
      ],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    expect(out).toBe('')
    const child = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(resolve(__dirname, '../..'))})(require(${JSON.stringify(resolve(__dirname, '../..'))}).destination('2')).warn('fd2')`,
      ],
      { encoding: 'utf8' },
    )
    expect(JSON.parse(child.stderr).msg).toBe('fd2')
  })

  it('minLength buffers until flush(cb), which reports completion', async () => {
    const file = join(tempDir('dest'), 'buffered.log')
    const dest = logx.destination({ dest: file, minLength: 4096, sync: false })
    await once(dest, 'ready')
    const logger = logx({ base: null, timestamp: false }, dest)
    logger.info('held back')
    expect(readFileSync(file, 'utf8')).toBe('')
    await new Promise<void>((resolve, reject) => logger.flush((err) => (err ? reject(err) : resolve())))
    expect(readLines(file)).toEqual([{ level: 30, msg: 'held back' }])
    dest.end()
  })

  it('maxLength drops lines past the buffer bound with a drop event, and keeps the rest intact', async () => {
    const file = join(tempDir('dest'), 'bounded.log')
    const dest = logx.destination({ dest: file, minLength: 4096, maxLength: 200, sync: false })
    const dropped: string[] = []
    dest.on('drop', (line: string) => dropped.push(line))
    const logger = logx({ base: null, timestamp: false }, dest)
    for (let i = 0; i < 10; i++) logger.info({ i }, 'x'.repeat(20))
    // Each line is 46 bytes: four fit in 200, the other six are dropped, whole.
    expect(dropped.map((line) => JSON.parse(line).i)).toEqual([4, 5, 6, 7, 8, 9])
    dest.flushSync()
    expect(readLines(file).map((r) => r.i)).toEqual([0, 1, 2, 3])
    dest.end()
  })

  it('reopen() supports rotation: after a rename, new lines go to a new file at the old path', () => {
    const dir = tempDir('dest')
    const file = join(dir, 'app.log')
    const dest = logx.destination({ dest: file, sync: true })
    const logger = logx({ base: null, timestamp: false }, dest)
    logger.info('before rotation')
    renameSync(file, join(dir, 'app.log.1'))
    dest.reopen()
    logger.info('after rotation')
    expect(readLines(join(dir, 'app.log.1')).map((r) => r.msg)).toEqual(['before rotation'])
    expect(readLines(file).map((r) => r.msg)).toEqual(['after rotation'])
    dest.end()
  })

  it('the metadata protocol sets lastLevel, lastMsg, lastObj, lastTime and lastLogger before each write', () => {
    const seen: unknown[] = []
    const dest: any = {
      [Symbol.for('logx.metadata')]: true,
      write(line: string) {
        seen.push({
          line,
          level: this.lastLevel,
          msg: this.lastMsg,
          obj: this.lastObj,
          time: this.lastTime,
          logger: this.lastLogger,
        })
      },
    }
    const logger = logx({ base: null, timestamp: () => ',"time":123' }, dest)
    const child = logger.child({ c: 1 })
    child.warn({ a: 1 }, 'meta')
    expect(seen).toEqual([
      {
        line: '{"level":40,"time":123,"c":1,"a":1,"msg":"meta"}\n',
        level: 40,
        msg: 'meta',
        obj: { a: 1 },
        time: '123',
        logger: child,
      },
    ])
  })

  it('without the metadata flag nothing is added to the destination', () => {
    const sink = createSink() as any
    logx({}, sink).info('x')
    expect(sink.lastLevel).toBeUndefined()
  })
})

describe('delivery at the edges of a process', () => {
  it('fatal flushes synchronously: the line is on disk even if the process is SIGKILLed right after', () => {
    const file = join(tempDir('dest'), 'fatal.log')
    const result = spawnSync(process.execPath, [scenarioScript, 'fatal-then-sigkill', file])
    expect(result.signal).toBe('SIGKILL')
    expect(readLines(file).map((r) => [r.level, r.msg])).toEqual([
      [30, 'before fatal'],
      [60, 'fatal line'],
    ])
  })

  it('buffered lines are written when the process calls process.exit()', () => {
    const file = join(tempDir('dest'), 'exit.log')
    const result = spawnSync(process.execPath, [scenarioScript, 'exit-with-buffered-lines', file])
    expect(result.status).toBe(0)
    expect(readLines(file).map((r) => r.i)).toEqual(Array.from({ length: 60 }, (_, i) => i))
  })

  it('buffered lines are written when the event loop ends naturally', () => {
    const file = join(tempDir('dest'), 'natural.log')
    const result = spawnSync(process.execPath, [scenarioScript, 'natural-end-with-buffered-lines', file])
    expect(result.status).toBe(0)
    expect(readLines(file)).toHaveLength(60)
  })

  it('the default destination is standard output; a replaced process.stdout.write is honoured', () => {
    const plain = spawnSync(process.execPath, [scenarioScript, 'stdout-default'], { encoding: 'utf8' })
    expect(plain.stdout).toBe('{"level":30,"msg":"to stdout"}\n')
    const replaced = spawnSync(process.execPath, [scenarioScript, 'stdout-replaced'], { encoding: 'utf8' })
    expect(JSON.parse(replaced.stdout)).toEqual({ level: 30, captured: 'through replaced write' })
  })

  it('a closed pipe (EPIPE) on stdout stops output without crashing the app', async () => {
    const child = spawn(process.execPath, [scenarioScript, 'epipe'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.stdout.once('data', () => child.stdout.destroy())
    const [code] = await once(child, 'exit')
    expect(stderr).toContain('survived')
    expect(code).toBe(0)
  })
})
