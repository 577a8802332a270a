import { describe, expect, it } from 'vitest'
import { createStore } from '../../../agent/sandbox/store'
import type { StoredEntry } from '../../../agent/sandbox/types'

describe('sandbox store', () => {
  it('lists newest first with paging and a limit', () => {
    const store = createStore({ retention: 100 })
    for (let i = 1; i <= 5; i++) store.add('sms', ({ id }) => ({ id, n: i }))
    expect(store.page('sms', 1, 2, undefined)).toEqual({
      records: [
        { id: 'sms-5', n: 5 },
        { id: 'sms-4', n: 4 },
      ],
      total: 5,
    })
    expect(store.page('sms', 3, 2, undefined).records.map((r) => r['n'])).toEqual([1])
    expect(store.page('sms', 2, 2, 3)).toEqual({ records: [{ id: 'sms-3', n: 3 }], total: 3 })
    expect(store.page('sms', 9, 2, undefined).records).toEqual([])
  })

  it('searches across kinds, case-insensitively, newest first', () => {
    const store = createStore({ retention: 100 })
    store.add('sms', () => ({ sms: 'Disk FULL' }))
    store.add('mail', () => ({ subject: 'disk full again' }))
    store.add('chat', () => ({ variable: ['cpu'] }))
    expect(store.search({ text: 'disk full' }).map((e) => e.kind)).toEqual(['mail', 'sms'])
    expect(store.search({ kinds: ['sms', 'chat'] }).map((e) => e.kind)).toEqual(['chat', 'sms'])
  })

  it('compacts the journal once it is mostly records retention already dropped', () => {
    const appended: StoredEntry[] = []
    let rewrites: StoredEntry[][] = []
    const store = createStore({
      retention: 2,
      journal: { append: (e) => appended.push(e), rewrite: (all) => rewrites.push([...all]) },
    })
    for (let i = 0; i < 1100; i++) store.add('sms', () => ({ i }))
    expect(appended).toHaveLength(1100)
    expect(rewrites).toHaveLength(1)
    expect(rewrites[0]?.map((e) => e.record['i'])).toEqual([1001, 1002])
    rewrites = []
    store.reset()
    expect(rewrites).toEqual([[]])
  })

  it('continues lead ids after the highest recovered one', () => {
    const store = createStore({
      retention: 10,
      initial: [{ seq: 7, kind: 'lead', record: { id: '1042', lead_id: '1042' } }],
    })
    expect(store.nextLeadId()).toBe('1043')
    expect(store.findLead('1042')?.seq).toBe(7)
    expect(store.add('sms', ({ id }) => ({ id })).seq).toBe(8)
  })

  it('gives each listed record as its JSON text, the same page as page()', () => {
    const store = createStore({ retention: 100 })
    for (let i = 1; i <= 5; i++) store.add('sms', ({ id }) => ({ id, n: i, text: `é ${i}` }))
    for (const [page, perPage, limit] of [
      [1, 2, undefined],
      [3, 2, undefined],
      [2, 2, 3],
      [9, 2, undefined],
    ] as const) {
      const { records, total } = store.page('sms', page, perPage, limit)
      expect(store.pageJson('sms', page, perPage, limit)).toEqual({
        records: records.map((r) => JSON.stringify(r)),
        total,
      })
    }
  })

  it("moves a kind's version on every change of its records, and only then", () => {
    const store = createStore({ retention: 2 })
    const versions = new Set<number>()
    const sms = () => store.version('sms')
    versions.add(sms())
    store.add('sms', () => ({ n: 1 }))
    versions.add(sms())
    const mail = store.version('mail')
    store.add('sms', () => ({ n: 2 }))
    versions.add(sms())
    expect(store.version('mail')).toBe(mail)
    store.add('sms', () => ({ n: 3 })) // drops n: 1 (retention 2)
    versions.add(sms())
    store.search({ text: 'n' })
    store.page('sms', 1, 10, undefined)
    expect(versions.has(sms())).toBe(true)
    expect(versions.size).toBe(4)
    store.reset()
    expect(versions.has(sms())).toBe(false)
    expect(store.pageJson('sms', 1, 10, undefined)).toEqual({ records: [], total: 0 })
  })

  it('searches newest first across kinds after retention dropped most of what arrived', () => {
    const store = createStore({ retention: 3 })
    for (let i = 0; i < 3000; i++) store.add(i % 2 === 0 ? 'sms' : 'mail', () => ({ text: `Item ${i}` }))
    store.add('chat', () => ({ text: 'item chat' }))
    expect(store.search({}).map((e) => e.record['text'])).toEqual([
      'item chat',
      'Item 2999',
      'Item 2998',
      'Item 2997',
      'Item 2996',
      'Item 2995',
      'Item 2994',
    ])
    expect(store.search({ kinds: ['mail'], text: 'ITEM 29', limit: 2 }).map((e) => e.record['text'])).toEqual([
      'Item 2999',
      'Item 2997',
    ])
    expect(store.all('sms').map((e) => e.record['text'])).toEqual(['Item 2994', 'Item 2996', 'Item 2998'])
    expect(store.count()).toBe(7)
  })

  it('drops the oldest records of any kind past its byte cap, counted, and keeps the seeded lookups', () => {
    // Each record's JSON text is exactly 100 bytes: {"id":"sms-N","pad":"..."} padded to length.
    const record = (id: string) => ({ id, pad: 'x'.repeat(100 - JSON.stringify({ id, pad: '' }).length) })
    const store = createStore({ retention: 100, maxBytes: 350 })
    store.add('instance', ({ id }) => record(id))
    store.add('sms', ({ id }) => record(id))
    store.add('lead', ({ id }) => record(id))
    store.add('mail', ({ id }) => record(id))
    expect(store.stats()).toEqual({ records: 3, bytes: 300, evicted: 1 })
    expect(store.all('sms')).toEqual([])
    expect(store.count('instance')).toBe(1)
    const leadVersion = store.version('lead')
    store.add('sms', ({ id }) => record(id))
    expect(store.stats()).toEqual({ records: 3, bytes: 300, evicted: 2 })
    expect(store.all('lead')).toEqual([])
    expect(store.version('lead')).not.toBe(leadVersion)
    expect(store.search({}).map((e) => e.record['id'])).toEqual(['sms-5', 'mail-4', 'inst-1'])
    store.reset()
    expect(store.stats()).toEqual({ records: 0, bytes: 0, evicted: 2 })
  })

  it('counts the bytes retention drops as gone', () => {
    const store = createStore({ retention: 1, maxBytes: 10_000 })
    store.add('sms', ({ id }) => ({ id, text: 'a' }))
    store.add('sms', ({ id }) => ({ id, text: 'b' }))
    expect(store.stats()).toEqual({ records: 1, bytes: JSON.stringify({ id: 'sms-2', text: 'b' }).length, evicted: 0 })
  })
})
