import { describe, expect, it } from 'vitest'
import { compileGlob } from '../../../agent/tail/glob'

describe('compileGlob', () => {
  it('splits a pattern into the directory to watch, its depth and a matcher', () => {
    const glob = compileGlob('/var/log/api/*.log')
    expect(glob).toMatchObject({ base: '/var/log/api', depth: 0 })
    expect(glob.matches('/var/log/api/app.log')).toBe(true)
    expect(glob.matches('/var/log/api/app.log.1')).toBe(false)
    expect(glob.matches('/var/log/api/sub/app.log')).toBe(false)
    expect(glob.matches('/var/log/api.log')).toBe(false)
  })

  it('resolves relative patterns against cwd', () => {
    const glob = compileGlob('logs/*.log', '/srv/app')
    expect(glob.base).toBe('/srv/app/logs')
    expect(glob.matches('/srv/app/logs/a.log')).toBe(true)
  })

  it('treats a plain path as exactly that file', () => {
    const glob = compileGlob('/var/log/app.log')
    expect(glob).toMatchObject({ base: '/var/log', depth: 0 })
    expect(glob.matches('/var/log/app.log')).toBe(true)
    expect(glob.matches('/var/log/app.log.1')).toBe(false)
  })

  it('supports **, ?, classes, negated classes and braces', () => {
    const deep = compileGlob('/logs/**/*.log')
    expect(deep.depth).toBeUndefined()
    expect(deep.matches('/logs/a.log')).toBe(true)
    expect(deep.matches('/logs/x/y/a.log')).toBe(true)
    expect(deep.matches('/logsx/a.log')).toBe(false)
    const mixed = compileGlob('/logs/{api,web}-?/[0-9][!a].log')
    expect(mixed.depth).toBe(1)
    expect(mixed.matches('/logs/api-1/7b.log')).toBe(true)
    expect(mixed.matches('/logs/web-2/0c.log')).toBe(true)
    expect(mixed.matches('/logs/db-1/7b.log')).toBe(false)
    expect(mixed.matches('/logs/api-1/7a.log')).toBe(false)
    expect(mixed.matches('/logs/api-12/7b.log')).toBe(false)
  })

  it('escapes regular-expression characters in names', () => {
    const glob = compileGlob('/logs/app(1)+.*')
    expect(glob.matches('/logs/app(1)+.log')).toBe(true)
    expect(glob.matches('/logs/app11.log')).toBe(false)
  })
})
