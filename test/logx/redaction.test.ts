import { describe, expect, it } from 'vitest'
import pino from 'pino'
import logx from 'logx'
import { createSink } from '../helpers/sink'

const quiet = { base: null, timestamp: false }

function logWith(redact: unknown, ...args: unknown[]): Record<string, any> {
  const sink = createSink()
  ;(logx({ ...quiet, redact } as any, sink).info as any)(...args)
  return sink.last()
}

describe('redact', () => {
  it('an array of paths censors with [Redacted] and leaves the caller object untouched', () => {
    const input = { user: { name: 'ann', password: 'hunter2' }, token: 't' }
    expect(logWith(['user.password', 'token'], input)).toEqual({
      level: 30,
      user: { name: 'ann', password: '[Redacted]' },
      token: '[Redacted]',
    })
    expect(input.user.password).toBe('hunter2')
  })

  it('wildcards: a.*.b, *.password, a[*].token', () => {
    const out = logWith(['teams.*.secret', '*.password', 'list[*].token'], {
      teams: { red: { secret: 1, open: 1 }, blue: { secret: 2 } },
      alice: { password: 'p', keep: true },
      list: [{ token: 'a' }, { token: 'b', id: 2 }],
    })
    expect(out.teams).toEqual({ red: { secret: '[Redacted]', open: 1 }, blue: { secret: '[Redacted]' } })
    expect(out.alice).toEqual({ password: '[Redacted]', keep: true })
    expect(out.list).toEqual([{ token: '[Redacted]' }, { token: '[Redacted]', id: 2 }])
  })

  it('bracket paths with quotes reach keys with dots, dashes and spaces', () => {
    const out = logWith(['headers["x-api-key"]', "headers['set cookie']", 'a["b.c"]'], {
      headers: { 'x-api-key': 'k', 'set cookie': 'c', host: 'h' },
      a: { 'b.c': 1, b: { c: 2 } },
    })
    expect(out.headers).toEqual({ 'x-api-key': '[Redacted]', 'set cookie': '[Redacted]', host: 'h' })
    expect(out.a).toEqual({ 'b.c': '[Redacted]', b: { c: 2 } })
  })

  it('censor as a string, as a function of (value, path), and remove', () => {
    expect(logWith({ paths: ['a.b'], censor: '***' }, { a: { b: 1 } }).a).toEqual({ b: '***' })
    const calls: unknown[] = []
    const out = logWith(
      {
        paths: ['a.b', 'top'],
        censor: (value: unknown, path: string[]) => {
          calls.push([value, path])
          return `len:${String(value).length}`
        },
      },
      { a: { b: 'four' }, top: 'xy' },
    )
    expect(out).toMatchObject({ a: { b: 'len:4' }, top: 'len:2' })
    expect(calls).toEqual(
      expect.arrayContaining([
        ['four', ['a', 'b']],
        ['xy', ['top']],
      ]),
    )
    expect(logWith({ paths: ['a.b', 'top'], remove: true }, { a: { b: 1, c: 2 }, top: 1, keep: 1 })).toEqual({
      level: 30,
      a: { c: 2 },
      keep: 1,
    })
  })

  it('applies to child bindings and to objects interpolated into the message', () => {
    const sink = createSink()
    const logger = logx({ ...quiet, redact: ['auth.token'] }, sink)
    logger.child({ auth: { token: 'bound', user: 'u' } }).info('with %j', { auth: { token: 'interpolated' } })
    const line = sink.lines[0]!
    expect(line).not.toContain('bound')
    expect(line).not.toContain('interpolated')
    expect(sink.last().auth).toEqual({ token: '[Redacted]', user: 'u' })
  })

  it('the redacted value does not reach the metadata lastObj', () => {
    let lastObj: any
    const dest: any = {
      [Symbol.for('logx.metadata')]: true,
      write() {
        lastObj = this.lastObj
      },
    }
    logx({ redact: ['card.number'] }, dest).info({ card: { number: '4111', brand: 'visa' } })
    expect(lastObj.card).toEqual({ number: '[Redacted]', brand: 'visa' })
  })

  it('paths that do not exist or meet primitives are ignored', () => {
    expect(logWith(['a.b.c', 'missing.x'], { a: 'primitive', other: 1 })).toEqual({
      level: 30,
      a: 'primitive',
      other: 1,
    })
  })

  it("refuses the paths pino refuses, with pino's message, logx's code and the option's path", () => {
    for (const bad of ['a..b', 'a[', 'a["x]', 'a,b']) {
      const message = `Invalid redaction path (${bad})`
      expect(() => pino({ redact: ['ok', bad] }, createSink()), bad).toThrow(message)
      expect(() => logx({ redact: ['ok', bad] }, createSink()), bad).toThrow(
        expect.objectContaining({ code: 'LOGX_ERR_INVALID_REDACT_PATH', message, path: 'redact[1]' }),
      )
    }
    // What pino takes, logx takes.
    for (const odd of ['a[b]', '.a', 'a.']) expect(() => logx({ redact: [odd] }, createSink()), odd).not.toThrow()
    expect(() => logx({ redact: { paths: 'a' } as any }, createSink())).toThrow(
      expect.objectContaining({ path: 'redact.paths', message: 'pino – redact must contain an array of strings' }),
    )
  })
})
