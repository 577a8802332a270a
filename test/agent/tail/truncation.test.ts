import { describe, expect, it } from 'vitest'
import { MIN_COPY_MATCH_BYTES } from '../../../agent/tail/file-identity'
import { keepsWaitingForCopy, planTruncation } from '../../../agent/tail/truncation'

const text = (tag: string, bytes: number): Buffer => Buffer.from(`${tag} `.repeat(bytes).slice(0, bytes))

describe('planTruncation', () => {
  it('1. copy-and-truncate with its copy already parked: the copy continues, other copies are released', () => {
    expect(planTruncation(text('a', 256), ['copy'])).toEqual({ kind: 'continue-in-copy', copy: 'copy', release: [] })
    expect(planTruncation(text('a', 256), ['copy', 'backup'])).toEqual({
      kind: 'continue-in-copy',
      copy: 'copy',
      release: ['backup'],
    })
  })

  it('2. no copy yet and a head that can recognise one: wait for the copy', () => {
    expect(planTruncation(text('a', MIN_COPY_MATCH_BYTES), [])).toEqual({ kind: 'await-copy' })
  })

  it('3. truncation in place of a file too short to recognise a copy: read the new generation at once', () => {
    expect(planTruncation(text('a', MIN_COPY_MATCH_BYTES - 1), [])).toEqual({ kind: 'no-copy' })
    expect(planTruncation(Buffer.alloc(0), [])).toEqual({ kind: 'no-copy' })
  })
})

describe('keepsWaitingForCopy', () => {
  const waited = (ticks: number) => ({ endedHead: text('a', 100), ticks })

  it('4. stays held at the first tick after the truncation, copy in sight or not', () => {
    expect(keepsWaitingForCopy(waited(0), [])).toBe(true)
    expect(keepsWaitingForCopy(waited(1), [])).toBe(false)
  })

  it('5. stays held while a file in probation starts like the ended generation', () => {
    expect(keepsWaitingForCopy(waited(3), [text('b', 40), text('a', 256)])).toBe(true)
  })

  it('6. is read when no file in probation may be its copy, or its wait is over', () => {
    expect(keepsWaitingForCopy(waited(1), [text('b', 256)])).toBe(false)
    expect(keepsWaitingForCopy(undefined, [text('a', 256)])).toBe(false)
  })
})
