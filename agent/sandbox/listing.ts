// The `*_record` listings as response bodies, cached until the kind's records change. A poller
// asks for the same page many times between two new records (agentbench: every 10 ms, on the event
// loop of the agent that embeds the sandbox), so a page is built once per store version, by
// concatenating the records' kept JSON texts, and served as ready bytes after that.

import type { StoredKind } from './stored-kinds'
import type { Store } from './types'

export interface ListingCache {
  /** The JSON body of a `WirePage` of `kind`, exactly as `JSON.stringify` of the page would be. */
  body(kind: StoredKind, page: number, perPage: number, limit: number | undefined): Buffer
}

/** Pages kept per kind; a poller asks for one or two, so more is a client walking pages. */
const PAGES_PER_KIND = 16

interface KindPages {
  version: number
  bodies: Map<string, Buffer>
}

export function createListingCache(store: Store): ListingCache {
  const byKind = new Map<StoredKind, KindPages>()

  function build(kind: StoredKind, page: number, perPage: number, limit: number | undefined): Buffer {
    const { records, total } = store.pageJson(kind, page, perPage, limit)
    // Key order of `WirePage` (api-routes.ts built it as an object before): status, data, page, per_page, total.
    // One join and one encode measured faster than writing the parts into a buffer one by one.
    const text =
      `{"status":"success","data":[${records.join(',')}],` +
      `"page":${JSON.stringify(page)},"per_page":${JSON.stringify(perPage)},"total":${JSON.stringify(total)}}`
    // Bytes, not the string: served as is on every hit, with no encoding per request.
    return Buffer.from(text, 'utf8')
  }

  return {
    body(kind, page, perPage, limit) {
      const version = store.version(kind)
      let pages = byKind.get(kind)
      if (pages === undefined || pages.version !== version) {
        pages = { version, bodies: new Map() }
        byKind.set(kind, pages)
      }
      const key = `${page}/${perPage}/${limit ?? ''}`
      const cached = pages.bodies.get(key)
      if (cached !== undefined) return cached
      const made = build(kind, page, perPage, limit)
      if (pages.bodies.size >= PAGES_PER_KIND) {
        // Oldest page first (a Map iterates in insertion order).
        const oldest = pages.bodies.keys().next()
        if (oldest.done !== true) pages.bodies.delete(oldest.value)
      }
      pages.bodies.set(key, made)
      return made
    },
  }
}
