import { describe, expect, it } from 'vitest'
import { newItemId } from '../../../agent/outbox/item-id'

describe('newItemId', () => {
  it('is a version 4 UUID of the RFC variant', () => {
    for (let i = 0; i < 1000; i++)
      expect(newItemId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('does not repeat, and every random hex digit takes all 16 values', () => {
    const ids = Array.from({ length: 50_000 }, newItemId)
    expect(new Set(ids).size).toBe(ids.length)
    const digits = ids[0]!.replace(/-/g, '').length
    for (let position = 0; position < digits; position++) {
      if (position === 12 || position === 16) continue // the version, and the variant's two fixed bits
      const seen = new Set(ids.map((id) => id.replace(/-/g, '')[position]))
      expect(seen.size, `hex digit ${position}`).toBe(16)
    }
  })
})
