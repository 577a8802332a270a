import { describe, expect, it } from 'vitest'
import { createListingCache } from '../../../agent/sandbox/listing'
import { createStore } from '../../../agent/sandbox/store'

const page = (body: Buffer) =>
  JSON.parse(body.toString('utf8')) as { data: { n: number }[]; page: number; per_page: number; total: number }

describe('listing cache', () => {
  it('builds the page object as JSON, in its key order', () => {
    const store = createStore({ retention: 100 })
    for (let i = 1; i <= 3; i++) store.add('sms', ({ id }) => ({ id, n: i, note: i === 2 ? 'naïve "q"' : '' }))
    const cache = createListingCache(store)
    const { records, total } = store.page('sms', 1, 2, undefined)
    expect(cache.body('sms', 1, 2, undefined).toString('utf8')).toBe(
      JSON.stringify({ status: 'success', data: records, page: 1, per_page: 2, total }),
    )
    expect(page(cache.body('sms', 5, 2, undefined))).toEqual({
      status: 'success',
      data: [],
      page: 5,
      per_page: 2,
      total: 3,
    })
  })

  it('serves a page again until its kind changes, then builds it anew', () => {
    const store = createStore({ retention: 100 })
    store.add('sms', () => ({ n: 1 }))
    const cache = createListingCache(store)
    const first = cache.body('sms', 1, 10, undefined)
    expect(cache.body('sms', 1, 10, undefined)).toBe(first)
    store.add('mail', () => ({ n: 9 }))
    expect(cache.body('sms', 1, 10, undefined)).toBe(first)
    store.add('sms', () => ({ n: 2 }))
    expect(page(cache.body('sms', 1, 10, undefined)).data.map((r) => r.n)).toEqual([2, 1])
    store.reset()
    expect(page(cache.body('sms', 1, 10, undefined))).toMatchObject({ data: [], total: 0 })
  })

  it('keeps pages apart by page, per_page and limit, beyond the pages it keeps', () => {
    const store = createStore({ retention: 100 })
    for (let i = 1; i <= 30; i++) store.add('sms', () => ({ n: i }))
    const cache = createListingCache(store)
    for (let round = 0; round < 2; round++) {
      for (let limit = 1; limit <= 40; limit++) {
        expect(page(cache.body('sms', 1, 5, limit)).total).toBe(Math.min(limit, 30))
      }
      expect(page(cache.body('sms', 2, 5, undefined)).data.map((r) => r.n)).toEqual([25, 24, 23, 22, 21])
      expect(page(cache.body('sms', 2, 5, 7)).data.map((r) => r.n)).toEqual([25, 24])
    }
  })
})
