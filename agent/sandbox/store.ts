// What the sandbox has received and what it serves back, newest first, with a per-kind retention
// cap. Memory is the source of truth (record-index.ts); a data directory (data-dir.ts) only journals
// it. This object assigns ids, journals, compacts and tells subscribers; the decisions are store-rules.ts's.
import { jsonOf, RecordIndex } from './record-index'
import { recordId, shouldCompact } from './store-rules'
import type { Store, StoredEntry, StoreEvent, StoreOptions } from './types'

export function createStore(options: StoreOptions): Store {
  const now = options.now ?? (() => new Date())
  const index = new RecordIndex(options.retention, options.maxBytes)
  const listeners = new Set<(event: StoreEvent) => void>()
  let appendedSinceRewrite = 0

  for (const entry of options.initial ?? []) index.remember(entry)

  function emit(event: StoreEvent): void {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // One broken subscriber (a closed SSE stream) must not stop the others.
      }
    }
  }

  function journal(entry: StoredEntry): void {
    if (options.journal === undefined) return
    options.journal.append(entry)
    appendedSinceRewrite++
    if (shouldCompact(appendedSinceRewrite, index.count())) {
      options.journal.rewrite(index.everything())
      appendedSinceRewrite = 0
    }
  }

  return {
    add(kind, make) {
      const seq = index.seq + 1
      const record = make({ seq, id: recordId(kind, seq), createdAt: now().toISOString() })
      const entry: StoredEntry = { seq, kind, record }
      index.remember(entry)
      journal(entry)
      emit({ type: 'added', entry })
      return entry
    },
    page(kind, page, perPage, limit) {
      const { slots, total } = index.pageSlots(kind, page, perPage, limit)
      return { records: slots.map((s) => s.entry.record), total }
    },
    pageJson(kind, page, perPage, limit) {
      const { slots, total } = index.pageSlots(kind, page, perPage, limit)
      return { records: slots.map(jsonOf), total }
    },
    version: (kind) => index.bucket(kind).version,
    all: (kind) => index.bucket(kind).entries,
    search: (query) => index.search(query),
    count: (kind) => index.count(kind),
    findLead: (leadId) => index.bucket('lead').entries.find((e) => e.record['lead_id'] === leadId),
    stats: () => ({ records: index.count(), bytes: index.bytes, evicted: index.evicted }),
    nextLeadId() {
      index.leadCounter += 1
      return String(index.leadCounter)
    },
    reset() {
      index.clear()
      options.journal?.rewrite([])
      appendedSinceRewrite = 0
      emit({ type: 'reset' })
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
