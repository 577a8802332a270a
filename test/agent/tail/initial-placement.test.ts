import { describe, expect, it } from 'vitest'
import type { CheckpointEntry } from '../../../agent/tail/checkpoint-store'
import { hashHead, HEAD_BYTES } from '../../../agent/tail/file-identity'
import { initialStart, placeInitialFiles, type FoundFile } from '../../../agent/tail/initial-placement'

const content = (tag: string, bytes = 1000): Buffer => Buffer.from(`${tag} `.repeat(bytes).slice(0, bytes))
const found = (fileId: string, text: Buffer): FoundFile => ({
  fileId,
  size: text.length,
  head: text.subarray(0, HEAD_BYTES),
})
const entry = (key: string, text: Buffer, offset: number, extra: Partial<CheckpointEntry> = {}): CheckpointEntry => {
  const [dev = '', ino = ''] = key.split(':')
  const head = text.subarray(0, Math.min(HEAD_BYTES, offset === 0 ? text.length : HEAD_BYTES))
  return { dev, ino, head: hashHead(head), headLength: head.length, offset, path: undefined, ...extra }
}

describe('placeInitialFiles', () => {
  it('resumes a file whose inode and first bytes match its entry', () => {
    const text = content('a')
    expect(placeInitialFiles([found('1:10', text)], [entry('1:10', text, 400)])).toEqual([
      { kind: 'resume', offset: 400, pending: false },
    ])
  })

  it('starts a file with an entry but other first bytes (or shorter than the offset) from 0', () => {
    const before = content('a')
    const after = content('b')
    expect(placeInitialFiles([found('1:10', after)], [entry('1:10', before, 400)])).toEqual([
      { kind: 'fresh', rewritten: true },
    ])
    expect(placeInitialFiles([found('1:10', before.subarray(0, 300))], [entry('1:10', before, 400)])).toEqual([
      { kind: 'fresh', rewritten: true },
    ])
  })

  it('leaves files without an entry to startAt', () => {
    expect(placeInitialFiles([found('1:11', content('a'))], [])).toEqual([{ kind: 'fresh', rewritten: false }])
  })

  it('parks a copy of a file that resumes (same full head, other inode)', () => {
    const text = content('a')
    expect(placeInitialFiles([found('1:10', text), found('1:20', text)], [entry('1:10', text, 400)])).toEqual([
      { kind: 'resume', offset: 400, pending: false },
      { kind: 'parked', copyOf: 0 },
    ])
  })

  it('resumes the copy of a file truncated while the tailer was down, at the original offset', () => {
    const old = content('a')
    const now = content('b', 100)
    expect(placeInitialFiles([found('1:10', now), found('1:20', old)], [entry('1:10', old, 400)])).toEqual([
      { kind: 'fresh', rewritten: true },
      { kind: 'resume', offset: 400, pending: false },
    ])
  })

  it('restarts a file that was still in probation from 0, in probation again', () => {
    const text = content('a', 40)
    expect(placeInitialFiles([found('1:10', text)], [entry('1:10', text, 0, { pending: true })])).toEqual([
      { kind: 'resume', offset: 0, pending: true },
    ])
  })

  it('never matches short heads across inodes', () => {
    const text = content('a', 100)
    expect(placeInitialFiles([found('1:20', text)], [entry('1:10', text, 50)])).toEqual([
      { kind: 'fresh', rewritten: false },
    ])
  })
})

describe('initialStart', () => {
  it('6. a resumed file starts at its offset, in probation again if it was', () => {
    expect(initialStart({ kind: 'resume', offset: 400, pending: false }, 'end')).toEqual({
      phase: 'active',
      start: 400,
    })
    expect(initialStart({ kind: 'resume', offset: 0, pending: true }, 'end')).toEqual({ phase: 'probation', start: 0 })
  })

  it('7. a parked copy is not read, and starts as a file without a checkpoint if it is no copy', () => {
    expect(initialStart({ kind: 'parked', copyOf: 0 }, 'end')).toEqual({ phase: 'parked', start: 'last-line-end' })
    expect(initialStart({ kind: 'parked', copyOf: 0 }, 'beginning')).toEqual({ phase: 'parked', start: 0 })
  })

  it('8. a file rewritten while the tailer was down is read from 0 whatever startAt says', () => {
    expect(initialStart({ kind: 'fresh', rewritten: true }, 'end')).toEqual({ phase: 'active', start: 0 })
  })

  it('9. any other file starts where startAt says', () => {
    expect(initialStart({ kind: 'fresh', rewritten: false }, 'end')).toEqual({
      phase: 'active',
      start: 'last-line-end',
    })
    expect(initialStart({ kind: 'fresh', rewritten: false }, 'beginning')).toEqual({ phase: 'active', start: 0 })
  })
})
