// `exclude` patterns: names without '/', paths with it, and the checks a pattern must pass.
import { describe, expect, it } from 'vitest'
import { createTailer, TailErrorCodes } from '../../../agent/tail'
import { compileExclusion, globProblem } from '../../../agent/tail/glob'

describe('compileExclusion', () => {
  it('has nothing to test when there are no patterns', () => {
    expect(compileExclusion([])).toBeUndefined()
  })

  it('matches a pattern without "/" against the file name, in any directory', () => {
    const excluded = compileExclusion(['*.gz', '*.[0-9]', 'other-*.log', 'exact.log']) as (path: string) => boolean
    for (const path of [
      '/var/log/app/app.log.2.gz',
      '/var/log/app/app.log.1',
      '/srv/x/app.log.9',
      '/var/log/other-api.log',
      '/a/b/exact.log',
    ]) {
      expect(excluded(path), path).toBe(true)
    }
    for (const path of [
      '/var/log/app/app.log',
      '/var/log/app/app.log.10',
      '/var/log/gz/app.log',
      '/var/log/other-api.log/x',
      '/a/exact.log.1.txt',
      '/a/inexact.log',
    ]) {
      expect(excluded(path), path).toBe(false)
    }
  })

  it('matches a pattern with "/" against the whole path, relative ones resolved against cwd', () => {
    const excluded = compileExclusion(['/var/log/app/other-*.log', 'logs/archive/**'], '/srv/app') as (
      path: string,
    ) => boolean
    expect(excluded('/var/log/app/other-web.log')).toBe(true)
    expect(excluded('/var/log/api/other-web.log')).toBe(false)
    expect(excluded('/srv/app/logs/archive/2024/app.log')).toBe(true)
    expect(excluded('/srv/app/logs/app.log')).toBe(false)
  })
})

describe('globProblem', () => {
  it('accepts what the matcher understands', () => {
    for (const pattern of ['*.gz', '*.[0-9]', 'app-{web,api}.log', '/var/log/**/*.1', '[!a]*'])
      expect(globProblem(pattern), pattern).toBeUndefined()
  })

  it('says what is wrong with a pattern that would silently match something else', () => {
    expect(globProblem('')).toMatch(/empty/)
    expect(globProblem('app-[0-9.log')).toMatch(/unclosed "\["/)
    expect(globProblem('app-[].log')).toMatch(/empty character class/)
    expect(globProblem('{a,b.log')).toMatch(/unclosed "\{"/)
    expect(globProblem('a}.log')).toMatch(/unmatched "\}"/)
    expect(globProblem('/var/log/old/')).toMatch(/names a directory/)
  })
})

describe('the exclude option', () => {
  it('reports a bad pattern by its index, with the other bad options', async () => {
    const error = await createTailer({ paths: '/tmp/*.log', exclude: ['*.gz', 'app-[0-9.log'], maxLineBytes: 0 }).catch(
      (caught: unknown) => caught,
    )
    expect(error).toMatchObject({ code: TailErrorCodes.INVALID_OPTION, path: 'exclude[1]' })
    expect((error as Error).message).toContain('maxLineBytes:')
  })

  it('takes a single pattern as a string', async () => {
    await expect(createTailer({ paths: '/tmp/*.log', exclude: 7 as unknown as string })).rejects.toMatchObject({
      path: 'exclude',
    })
  })
})
