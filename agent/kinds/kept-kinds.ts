// The agent's one kind table and miner, kept: restored from the store at start (the miner seeded with
// the kinds' templates, so their ids stay what they were), and handed to the engine as a table that
// writes a kind it meets for the first time to the store before it answers. The engine decides a
// `kind: new` page in the same call, after the answer, and the page reaches the outbox after the
// engine returns: so the kind is on disk no later than its page, and a restart reading the same
// lines again finds it known. A kind learned (kinds.learn) is never paged: it waits for the next
// flush with the counts. Counts are written by flush() (the daemon's timer and its stop). What a
// `kind: new` rule counts toward its min_count, and its page, are written as the rule decides (before
// the page reaches the outbox, before the checkpoint commits the lines counted): a restart or a
// SIGKILL neither loses a count nor pages a kind twice. Kinds the miner merged are one kind in the
// table (kind-fold.ts): the miner is seeded with the kinds the restored table holds, each with all its
// aliases (the ids of the kinds it absorbed too), so a line of an absorbed kind goes to its survivor.
import type { KindSeen, KindTable } from '../../alerts/kinds/kind-table'
import type { KindDelta, KindEntry, KindMiner, KindRef } from '../../alerts/kinds/types'
import type { AlertLine } from '../../alerts/line'
import type { KindStore } from './types'

export interface KeptKindsOptions {
  store: KindStore
  table: KindTable
  miner: KindMiner
  /** A kind this agent met first (not learned, not from a fleet): a fleet claims it. */
  onNew?: ((entry: KindEntry) => void) | undefined
  /** A write of the store failed: said by the caller; the line still goes on (no alert is lost to it). */
  onError: (err: unknown) => void
}

export interface KeptKindsStats {
  /** Kinds held, by source (`''` for events without one), as of the last flush. */
  bySource: ReadonlyMap<string, number>
  kinds: number
  evicted: number
  /** Kinds met for the first time here since start (learned ones included). */
  created: number
  restored: number
}

export interface KeptKinds {
  /** The table the engine is handed: every engine of the agent (a reload's too) gets this one. */
  readonly table: KindTable
  readonly miner: KindMiner
  /** Every kind the table holds (copies), least recently seen first. */
  entries(): KindEntry[]
  /** Writes the counts that moved since the last flush (and learned kinds) to the store. */
  flush(): void
  /**
   * A fleet shares counts: from the call on, what this agent's own lines add to each kind is kept
   * until takeLocal() hands it over (and forgets it) as deltas for the other agents.
   */
  shareCounts(): void
  takeLocal(): KindDelta[]
  stats(): KeptKindsStats
}

/** Seeds the kinds that are nobody's alias (a kind absorbed into another is that one's), with their aliases. */
function seedMiner(miner: KindMiner, entries: readonly KindEntry[]): void {
  const aliases = new Set<string>()
  for (const entry of entries) for (const alias of entry.aliases) if (alias !== entry.id) aliases.add(alias)
  const bySource = new Map<string | undefined, { id: string; template: string; aliases: string[] }[]>()
  for (const { id, template, aliases: own, source } of entries) {
    if (aliases.has(id)) continue
    const list = bySource.get(source) ?? []
    list.push({ id, template, aliases: own })
    bySource.set(source, list)
  }
  for (const [source, kinds] of bySource) miner.seed(source, kinds)
}

function countBySource(entries: readonly KindEntry[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const { source } of entries) counts.set(source ?? '', (counts.get(source ?? '') ?? 0) + 1)
  return counts
}

export function keepKinds(options: KeptKindsOptions): KeptKinds {
  const { store, table, miner } = options
  const restored = table.restore(store.restored())
  // What the table holds once restored: an absorbed kind the file still had is folded into its survivor.
  const held = table.entries()
  seedMiner(miner, held)
  let bySource = countBySource(held)
  let created = 0
  // This agent's own counts since the last takeLocal(), by id (only while a fleet shares them).
  let local: Map<string, KindDelta> | undefined

  function countLocal(seen: KindSeen, line: AlertLine, now: number, host: string): void {
    const delta = local?.get(seen.entry.id)
    if (delta !== undefined) {
      delta.count++
      delta.at = now
      // A template generalised since: the other agents get the kind's template as it stands.
      delta.template = seen.entry.template
      return
    }
    const { id, source, template, level, sample } = seen.entry
    local?.set(id, { id, source, template, level, at: now, count: 1, host, sample: sample || line.raw.slice(0, 1024) })
  }

  function write(act: () => void): void {
    try {
      act()
    } catch (err) {
      options.onError(err)
    }
  }

  function met(seen: KindSeen, here: boolean): KindSeen {
    if (!seen.isNew) return seen
    created++
    // Learned kinds are never paged: they go with the next flush's counts.
    if (seen.entry.learned) return seen
    write(() => store.added([seen.entry]))
    if (here) options.onNew?.(seen.entry)
    return seen
  }

  const kept: KindTable = {
    ...table,
    observe(ref: KindRef, line: AlertLine, now: number, host: string) {
      const seen = met(table.observe(ref, line, now, host), true)
      if (local !== undefined) countLocal(seen, line, now, host)
      return seen
    },
    merge: (delta: KindDelta, now: number) => met(table.merge(delta, now), false),
    // Written under the id the table holds the kind by: an absorbed kind's id answers its survivor.
    waiting(id: string, rule: string, times: readonly number[]) {
      table.waiting(id, rule, times)
      const kind = table.get(id)?.id ?? id
      write(() => store.waiting(kind, rule, times))
    },
    paged(id: string) {
      table.paged(id)
      const kind = table.get(id)?.id ?? id
      write(() => store.paged(kind))
    },
  }

  return {
    table: kept,
    miner,
    entries: () => table.entries(),
    flush() {
      const entries = table.entries()
      bySource = countBySource(entries)
      write(() => store.flush(entries))
    },
    shareCounts() {
      local ??= new Map()
    },
    takeLocal() {
      if (local === undefined || local.size === 0) return []
      const deltas = [...local.values()]
      local = new Map()
      return deltas
    },
    stats() {
      const { kinds, evicted } = table.stats()
      return { bySource, kinds, evicted, created, restored }
    },
  }
}
