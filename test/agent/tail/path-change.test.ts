import { describe, expect, it } from 'vitest'
import { decidePathChange } from '../../../agent/tail/path-change'

interface Followed {
  readonly name: string
  readonly path: string | undefined
}

const at = (path: string | undefined, name = 'a'): Followed => ({ name, path })
const file = (followed: Followed | undefined) => ({ kind: 'file' as const, followed })

describe('decidePathChange', () => {
  it('1. nothing at the path (deleted, or renamed away): the file followed there is detached', () => {
    const old = at('/l/app.log')
    expect(decidePathChange('/l/app.log', old, { kind: 'nothing' })).toEqual({ kind: 'gone', detach: old })
    expect(decidePathChange('/l/app.log', undefined, { kind: 'nothing' })).toEqual({ kind: 'gone', detach: undefined })
  })

  it('2. something that is not a regular file is ignored, and the file followed there kept', () => {
    expect(decidePathChange('/l/app.log', at('/l/app.log'), { kind: 'not-a-file' })).toEqual({ kind: 'ignored' })
  })

  it('3. the file followed under this path: the same file, nothing detached', () => {
    const same = at('/l/app.log')
    expect(decidePathChange('/l/app.log', same, file(same))).toEqual({ kind: 'same', file: same, detach: undefined })
  })

  it('4. a file followed under another name was renamed within the patterns: it moves here', () => {
    const renamed = at('/l/app.log')
    expect(decidePathChange('/l/app-1.log', undefined, file(renamed))).toEqual({
      kind: 'moved',
      file: renamed,
      detach: undefined,
    })
  })

  it('5. a file not followed is new', () => {
    expect(decidePathChange('/l/new.log', undefined, file(undefined))).toEqual({ kind: 'new', detach: undefined })
  })

  it('rename-and-create: a new file where another was followed detaches the old one first', () => {
    const old = at('/l/app.log', 'old')
    expect(decidePathChange('/l/app.log', old, file(undefined))).toEqual({ kind: 'new', detach: old })
    // The name now holds a file followed elsewhere (two files swapped names): both carry on.
    const other = at('/l/other.log', 'other')
    expect(decidePathChange('/l/app.log', old, file(other))).toEqual({ kind: 'moved', file: other, detach: old })
  })
})
