import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createTailer, TailError, TailErrorCodes, type TailerOptions } from '../../../agent/tail'
import { normalizeTailerOptions } from '../../../agent/tail/options'

describe('options', () => {
  it('reports every bad option at once, naming each', async () => {
    const bad = {
      paths: ['ok', ''],
      startAt: 'middle',
      maxLineBytes: 0,
      pollIntervalMs: 1.5,
      syncReads: 'yes',
    } as unknown as TailerOptions
    const error = await createTailer(bad).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TailError)
    expect(error).toMatchObject({ code: TailErrorCodes.INVALID_OPTION, path: 'paths[1]' })
    const message = (error as Error).message
    for (const part of ['paths[1]:', 'startAt:', 'maxLineBytes:', 'pollIntervalMs:', 'syncReads:'])
      expect(message).toContain(part)
  })

  it("takes followSymlinks as 'inside', 'outside', 'never' or a list of directories, resolved against cwd", async () => {
    expect(normalizeTailerOptions({ paths: 'a' }).followSymlinks).toBe('inside')
    expect(normalizeTailerOptions({ paths: 'a', followSymlinks: 'never' }).followSymlinks).toBe('never')
    expect(normalizeTailerOptions({ paths: 'a', cwd: '/srv', followSymlinks: ['pods', '/x/'] }).followSymlinks).toEqual(
      ['/srv/pods', '/x'],
    )
    for (const [followSymlinks, path] of [
      ['anywhere', 'followSymlinks'],
      [['/ok', ''], 'followSymlinks[1]'],
    ] as const)
      expect(() => normalizeTailerOptions({ paths: 'a', followSymlinks } as unknown as TailerOptions)).toThrow(
        expect.objectContaining({ code: TailErrorCodes.INVALID_OPTION, path }),
      )
  })

  it('needs at least one path', async () => {
    await expect(createTailer({ paths: [] })).rejects.toMatchObject({
      code: TailErrorCodes.INVALID_OPTION,
      path: 'paths',
    })
  })
})

describe('errors', () => {
  it('every code is documented in the README, with nothing documented that does not exist', () => {
    const readme = readFileSync(join(__dirname, '../../../agent/tail/README.md'), 'utf8')
    const documented = new Set(readme.match(/LOGX_TAIL_ERR_[A-Z_]+/g))
    expect(documented).toEqual(new Set(Object.values(TailErrorCodes)))
  })

  it('codes are unique and carry the module prefix', () => {
    const codes = Object.values(TailErrorCodes)
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) expect(code).toMatch(/^LOGX_TAIL_ERR_[A-Z_]+$/)
  })
})
