// One test per rule of agent/acknowledge/resolved-memory.ts.
import { describe, expect, it } from 'vitest'
import { createResolvedMemory, REMEMBER_MS } from '../../../agent/acknowledge/resolved-memory'

const HOUR_AGO = 1_000_000

describe('resolves remembered against late firings', () => {
  it('1. a later resolve of the same key moves the end on, never back', () => {
    const memory = createResolvedMemory()
    memory.remember('k', 500, HOUR_AGO)
    memory.remember('k', 300, HOUR_AGO + 1)
    expect(memory.stale('k', 450, HOUR_AGO + 2)).toBe(true)
    memory.remember('k', 800, HOUR_AGO + 3)
    expect(memory.stale('k', 700, HOUR_AGO + 4)).toBe(true)
  })

  it('2. a firing that started at or before the end is stale; one that started after it is new', () => {
    const memory = createResolvedMemory()
    memory.remember('k', 500, HOUR_AGO)
    expect(memory.stale('k', 500, HOUR_AGO)).toBe(true)
    expect(memory.stale('k', 100, HOUR_AGO)).toBe(true)
    expect(memory.stale('k', 501, HOUR_AGO)).toBe(false)
    expect(memory.stale('other', 100, HOUR_AGO)).toBe(false)
  })

  it('3. a firing without a start time is never stale', () => {
    const memory = createResolvedMemory()
    memory.remember('k', 500, HOUR_AGO)
    expect(memory.stale('k', undefined, HOUR_AGO)).toBe(false)
  })

  it('4. a resolve is forgotten REMEMBER_MS after it was heard', () => {
    const memory = createResolvedMemory()
    memory.remember('k', 500, HOUR_AGO)
    expect(memory.stale('k', 100, HOUR_AGO + REMEMBER_MS)).toBe(true)
    expect(memory.stale('k', 100, HOUR_AGO + REMEMBER_MS + 1)).toBe(false)
    expect(memory.size).toBe(0)
  })

  it('5. past its bound, the resolve heard first is forgotten first', () => {
    const memory = createResolvedMemory(2)
    memory.remember('a', 500, HOUR_AGO)
    memory.remember('b', 500, HOUR_AGO)
    memory.remember('a', 500, HOUR_AGO + 1)
    memory.remember('c', 500, HOUR_AGO + 2)
    expect(memory.size).toBe(2)
    expect(memory.stale('b', 100, HOUR_AGO + 3)).toBe(false)
    expect(memory.stale('a', 100, HOUR_AGO + 3)).toBe(true)
    expect(memory.stale('c', 100, HOUR_AGO + 3)).toBe(true)
  })
})
