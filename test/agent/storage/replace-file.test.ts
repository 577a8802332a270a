// Atomic replace on real files: the new text in place, no temp left, the mode asked for, a failed
// replacement leaving the old text whole, and leftovers of dead processes cleaned on first use.
import { describe, expect, it } from 'vitest'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { replaceFile, replaceFileAsync } from '../../../agent/storage/replace-file'
import { suiteTempDir } from '../../helpers/temp-dir'

const root = suiteTempDir('replace')
let n = 0
const dirIn = (): string => {
  const dir = join(root, String(n++))
  mkdirSync(dir)
  return dir
}

describe('replaceFile', () => {
  it('puts the new text in place and leaves nothing beside it', () => {
    const dir = dirIn()
    const file = join(dir, 'state.json')
    replaceFile(file, 'one')
    replaceFile(file, 'two')
    expect(readFileSync(file, 'utf8')).toBe('two')
    expect(readdirSync(dir)).toEqual(['state.json'])
  })

  it('creates with the mode asked for', async () => {
    const file = join(dirIn(), 'cursor')
    await replaceFileAsync(file, 'x', { mode: 0o600 })
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('on failure keeps the old text and removes its temp', () => {
    const dir = dirIn()
    const file = join(dir, 'state.json')
    replaceFile(file, 'old')
    // A directory where the temp would go: the open fails.
    mkdirSync(join(dir, `.state.json.${process.pid}.tmp`, 'inside'), { recursive: true })
    expect(() => replaceFile(file, 'new')).toThrow()
    expect(readFileSync(file, 'utf8')).toBe('old')
  })

  it('deletes the temps dead processes left, on its first replacement of the file', async () => {
    const dir = dirIn()
    writeFileSync(join(dir, '.a.json.4242.tmp'), '{"torn')
    writeFileSync(join(dir, 'a.json.tmp'), '{"torn')
    writeFileSync(join(dir, '.b.json.4242.tmp'), 'not ours')
    replaceFile(join(dir, 'a.json'), '{}')
    expect(readdirSync(dir).sort()).toEqual(['.b.json.4242.tmp', 'a.json'])
    await replaceFileAsync(join(dir, 'b.json'), '{}')
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json'])
  })
})
