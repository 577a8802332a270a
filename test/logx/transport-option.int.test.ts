import { describe, expect, it } from 'vitest'
import { once } from 'node:events'
import { resolve } from 'node:path'
import logx from 'logx'

const fixture = (name: string) => resolve(__dirname, '../fixtures/transports', name)

describe('the transport option', () => {
  it('a target that fails becomes a process warning, not a crash, and logging goes on without throwing', async () => {
    const warned = once(process, 'warning')
    const logger = logx({ transport: { target: fixture('crash-on-start.js') } })
    logger.info('the target never starts')
    const [warning] = (await warned) as [Error & { code?: string }]
    expect(warning.code).toBe('LOGX_TRANSPORT_FAILED')
    expect(warning.message).toContain('crash-on-start.js')
    expect(() => logger.error('after the crash')).not.toThrow()
  })

  it('a target file that does not exist is a warning too, not a throw at logx()', async () => {
    const missing = resolve(__dirname, '../fixtures/transports/no-such-target.js')
    // Earlier tests' loggers may still warn: wait for the one about this target.
    const warned = new Promise<Error & { code?: string }>((done) => {
      const onWarning = (warning: Error & { code?: string }): void => {
        if (!warning.message.includes('no-such-target.js')) return
        process.off('warning', onWarning)
        done(warning)
      }
      process.on('warning', onWarning)
    })
    let logger: ReturnType<typeof logx> | undefined
    expect(() => (logger = logx({ transport: { target: missing } }))).not.toThrow()
    const warning = await warned
    expect(warning.code).toBe('LOGX_TRANSPORT_FAILED')
    expect(warning.message).toMatch(/could not be loaded: Cannot find module/)
    expect(() => logger?.info('still running')).not.toThrow()
  })

  it('an error listener the app adds itself receives the error instead', async () => {
    const logger = logx({ transport: { target: fixture('crash-on-start.js') } })
    const stream = (logger as any)[logx.symbols.streamSym]
    const failed = once(stream, 'error')
    logger.info('boom')
    const [err] = (await failed) as [Error & { code?: string }]
    expect(err.code).toBe('LOGX_ERR_TRANSPORT_FAILED')
  })

  it('a stream given as the transport option is refused with a clear error', () => {
    expect(() => logx({ transport: logx.destination(2) as any })).toThrow(
      expect.objectContaining({ code: 'LOGX_ERR_INVALID_TRANSPORT' }),
    )
  })

  it('targets with a custom level formatter are refused, since targets route on the numeric level', () => {
    expect(() =>
      logx({ formatters: { level: (label) => ({ level: label }) }, transport: { targets: [{ target: 'logx/file' }] } }),
    ).toThrow(expect.objectContaining({ code: 'LOGX_ERR_INVALID_TRANSPORT', path: 'formatters.level' }))
  })
})
