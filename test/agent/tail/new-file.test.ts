import { describe, expect, it } from 'vitest'
import { HEAD_BYTES, MIN_COPY_MATCH_BYTES } from '../../../agent/tail/file-identity'
import type { FileGenerationPhase } from '../../../agent/tail/file-generation'
import { classifyNewFile } from '../../../agent/tail/new-file'

const text = (tag: string, bytes = HEAD_BYTES): Buffer => Buffer.from(`${tag} `.repeat(bytes).slice(0, bytes))
const other = (head: Buffer, phase: FileGenerationPhase = 'active') => ({ phase, head })

describe('classifyNewFile', () => {
  it('1. copy-and-truncate, copy found after the truncation: it starts like a generation waiting for its copy', () => {
    const ended = text('a', 100)
    // The copy holds the ended generation's bytes and what was written after them.
    expect(classifyNewFile(text('a'), false, [text('z'), ended], [])).toEqual({ kind: 'copy-of-truncated', index: 1 })
    // Before any other rule: the truncated file's new generation may start the same way too.
    expect(classifyNewFile(text('a'), false, [ended], [other(text('a'))])).toEqual({
      kind: 'copy-of-truncated',
      index: 0,
    })
  })

  it('1. a head shorter than MIN_COPY_MATCH_BYTES never makes a copy', () => {
    expect(classifyNewFile(text('a'), false, [text('a', MIN_COPY_MATCH_BYTES - 1)], [])).toEqual({ kind: 'new' })
  })

  it('2. a file with the full head of a file being read is a parked copy', () => {
    const original = other(text('a'))
    expect(classifyNewFile(text('a'), false, [], [other(text('b')), original])).toEqual({
      kind: 'parked',
      copyOf: original,
    })
  })

  it('2. only a file being read is copied, and only a full head parks', () => {
    expect(classifyNewFile(text('a'), false, [], [other(text('a'), 'parked'), other(text('a'), 'probation')])).toEqual({
      kind: 'new',
    })
    const short = text('a', 200)
    expect(classifyNewFile(short, true, [], [other(short)])).toEqual({ kind: 'new' })
  })

  it('3. a file that starts like a file being read whose head was short is looked at again after it, once', () => {
    const suspect = other(text('a', 100))
    const unrelated = other(text('b', 100))
    expect(classifyNewFile(text('a'), false, [], [suspect, unrelated])).toEqual({
      kind: 'deferred',
      suspects: [suspect],
    })
    expect(classifyNewFile(text('a'), true, [], [suspect, unrelated])).toEqual({ kind: 'new' })
  })

  it('4. anything else is a new file', () => {
    expect(classifyNewFile(text('a'), false, [text('b')], [other(text('c'))])).toEqual({ kind: 'new' })
  })
})
