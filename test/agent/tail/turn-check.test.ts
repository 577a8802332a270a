import { describe, expect, it } from 'vitest'
import { HEAD_BYTES } from '../../../agent/tail/file-identity'
import { checkContent, startTurn, type ContentFacts, type TurnFacts } from '../../../agent/tail/turn-check'

const turn = (facts: Partial<TurnFacts> = {}): TurnFacts => ({
  open: true,
  phase: 'active',
  held: false,
  waitsFor: undefined,
  ...facts,
})
const text = (tag: string, bytes: number): Buffer => Buffer.from(`${tag} `.repeat(bytes).slice(0, bytes))
const full = text('a', HEAD_BYTES)
const content = (facts: Partial<ContentFacts> = {}): ContentFacts => ({
  phase: 'active',
  readOffset: 1000,
  knownHead: full,
  size: 2000,
  head: full,
  settled: false,
  detached: false,
  ...facts,
})

describe('startTurn', () => {
  it('1. a closed, parked or released file has nothing to read', () => {
    expect(startTurn(turn({ open: false }))).toEqual({ kind: 'nothing-to-read' })
    expect(startTurn(turn({ phase: 'parked' }))).toEqual({ kind: 'nothing-to-read' })
    expect(startTurn(turn({ phase: 'released' }))).toEqual({ kind: 'nothing-to-read' })
  })

  it('2. a truncated file held for its copy waits for the tick', () => {
    expect(startTurn(turn({ held: true }))).toEqual({ kind: 'wait-for-copy' })
  })

  it('3. a file waits while the file holding its older lines is not read to its end', () => {
    const older = { phase: 'active' as const, readOffset: 500, size: 500, queued: false }
    expect(startTurn(turn({ waitsFor: { ...older, readOffset: 400 } }))).toEqual({ kind: 'wait-for-older-lines' })
    // Its size may be from before the copy was complete: queued for a read, it has not caught up.
    expect(startTurn(turn({ waitsFor: { ...older, queued: true } }))).toEqual({ kind: 'wait-for-older-lines' })
    expect(startTurn(turn({ waitsFor: older }))).toEqual({ kind: 'look' })
    // Released (read to its end): nothing to wait for.
    expect(startTurn(turn({ waitsFor: { ...older, phase: 'released', readOffset: 0 } }))).toEqual({ kind: 'look' })
  })

  it('4. otherwise the file is looked at', () => {
    expect(startTurn(turn())).toEqual({ kind: 'look' })
    expect(startTurn(turn({ phase: 'probation' }))).toEqual({ kind: 'look' })
  })
})

describe('checkContent', () => {
  it('5. truncation in place: smaller than what was read is a new generation', () => {
    expect(checkContent(content({ size: 999 }))).toEqual({ kind: 'truncated', reason: 'shorter' })
    expect(checkContent(content({ size: 0, head: Buffer.alloc(0) }))).toEqual({ kind: 'truncated', reason: 'shorter' })
  })

  it('6. copy-and-truncate rewritten past the read offset, or a reused inode: other first bytes are a new generation', () => {
    expect(checkContent(content({ size: 5000, head: text('b', HEAD_BYTES) }))).toEqual({
      kind: 'truncated',
      reason: 'other-first-bytes',
    })
    // A head seen short must still be where it was: a longer head that starts with it is the same file.
    expect(checkContent(content({ knownHead: full.subarray(0, 40), readOffset: 40, size: 2000, head: full }))).toEqual({
      kind: 'read',
    })
    expect(
      checkContent(
        content({ knownHead: full.subarray(0, 40), readOffset: 40, size: 2000, head: text('b', HEAD_BYTES) }),
      ),
    ).toMatchObject({ kind: 'truncated' })
  })

  it('7. a new file with a short head, still growing and still named, waits in probation', () => {
    const short = full.subarray(0, 100)
    expect(
      checkContent(content({ phase: 'probation', readOffset: 0, knownHead: short, size: 100, head: short })),
    ).toEqual({ kind: 'wait-in-probation' })
  })

  it('8. a new file is classified once its head is complete, it was quiet for a tick, or its path went away', () => {
    const short = full.subarray(0, 100)
    const probation = content({ phase: 'probation', readOffset: 0, knownHead: short, size: 100, head: short })
    expect(checkContent({ ...probation, size: 2000, head: full })).toEqual({ kind: 'classify' })
    expect(checkContent({ ...probation, settled: true })).toEqual({ kind: 'classify' })
    expect(checkContent({ ...probation, detached: true })).toEqual({ kind: 'classify' })
  })

  it('9. a file that grew with the same first bytes is read', () => {
    expect(checkContent(content())).toEqual({ kind: 'read' })
    expect(checkContent(content({ size: 1000 }))).toEqual({ kind: 'read' })
  })
})
