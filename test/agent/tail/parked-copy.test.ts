import { describe, expect, it } from 'vitest'
import { HEAD_BYTES } from '../../../agent/tail/file-identity'
import {
  parkedCopyVerdict,
  parkedCopyWindow,
  type ParkedSizes,
  type ParkedWindows,
} from '../../../agent/tail/parked-copy'

const text = (tag: string, bytes = HEAD_BYTES): Buffer => Buffer.from(`${tag} `.repeat(bytes).slice(0, bytes))
const sizes = (overrides: Partial<ParkedSizes> = {}): ParkedSizes => ({
  originalBeingRead: true,
  originalReadOffset: 3000,
  originalSize: 4000,
  parkedSize: 4000,
  ...overrides,
})
const windows = (overrides: Partial<ParkedWindows> = {}): ParkedWindows => ({
  parkedSize: 4000,
  originalSize: 4000,
  parked: text('x'),
  original: text('x'),
  originalHead: text('h'),
  originalHeadNow: text('h'),
  ...overrides,
})

describe('parkedCopyWindow', () => {
  it('1. nothing is decided while the original is not being read', () => {
    expect(parkedCopyWindow(sizes({ originalBeingRead: false }))).toEqual({ kind: 'stay-parked' })
  })

  it('2. an original shorter than what was read of it may be truncated: its turn hands its rest to the copy', () => {
    expect(parkedCopyWindow(sizes({ originalSize: 2999 }))).toEqual({ kind: 'stay-parked' })
  })

  it('3. files that share no more than their head have nothing more to compare', () => {
    expect(parkedCopyWindow(sizes({ originalReadOffset: 0, parkedSize: HEAD_BYTES }))).toEqual({ kind: 'stay-parked' })
  })

  it('4. otherwise the last HEAD_BYTES both have are compared', () => {
    expect(parkedCopyWindow(sizes({ parkedSize: 3500 }))).toEqual({ kind: 'compare', at: 3500 - HEAD_BYTES })
    expect(parkedCopyWindow(sizes({ parkedSize: 9000 }))).toEqual({ kind: 'compare', at: 4000 - HEAD_BYTES })
  })
})

describe('parkedCopyVerdict: a file that only starts like another', () => {
  it('5. an original truncated while it was compared decides nothing', () => {
    expect(parkedCopyVerdict(windows({ originalHeadNow: text('n'), parked: text('y'), parkedSize: 9000 }))).toEqual({
      kind: 'stay-parked',
    })
  })

  it('6. a file longer than the one it was taken for is no copy of it', () => {
    expect(parkedCopyVerdict(windows({ parkedSize: 4001 }))).toEqual({
      kind: 'own-file',
      reason: 'longer-than-original',
    })
  })

  it('7. a file whose bytes differ further on only starts the same way (a banner): its own file', () => {
    expect(parkedCopyVerdict(windows({ parked: text('y') }))).toEqual({ kind: 'own-file', reason: 'other-bytes' })
  })

  it('8. the same bytes, no longer than the original: a copy still', () => {
    expect(parkedCopyVerdict(windows({ parkedSize: 3500 }))).toEqual({ kind: 'stay-parked' })
  })
})
