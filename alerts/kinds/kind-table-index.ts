// The kind table's kinds by id, and their aliases to them (kind-table.ts): a kind the miner merged into
// another (kind-fold.ts) leaves the table, and its id answers the kind it went into from then on. An id
// is looked up among the aliases only when no kind has it (a new kind, or a fleet's id of a merged
// kind): a line of a known kind costs one Map get, as before. Bounded with the table: a kind that
// leaves it (evicted, folded) takes its aliases along.
import { foldKind } from './kind-fold'
import type { RecencyLinks, RecencyList } from './recency-list'
import type { KindEntry } from './types'

/** What the index reads and sets of a table's node. */
export interface HeldKind<N extends RecencyLinks<N>> extends RecencyLinks<N> {
  readonly entry: KindEntry
  readonly order: RecencyList<N>
  /** The table's cached last hourly bucket: a fold makes new buckets, so it is dropped. */
  hourBucket: [number, number] | undefined
  /** The last alias the miner gave, checked against the entry's (addAlias). */
  lastAlias: string | undefined
}

export class KindIndex<N extends HeldKind<N>> {
  readonly byId = new Map<string, N>()
  private readonly byAlias = new Map<string, N>()

  nodeOf(id: string): N | undefined {
    return this.byId.get(id) ?? this.byAlias.get(id)
  }

  /** A node under its id, its aliases to it. */
  add(node: N): void {
    this.byId.set(node.entry.id, node)
    for (const alias of node.entry.aliases) if (alias !== node.entry.id) this.byAlias.set(alias, node)
  }

  /** Out of the index (evicted, folded or renamed), with its aliases. */
  forget(node: N): void {
    this.byId.delete(node.entry.id)
    for (const alias of node.entry.aliases) if (this.byAlias.get(alias) === node) this.byAlias.delete(alias)
  }

  /** A merge's ref: the absorbed kinds held fold into kind `id`; when that one is not held, the first becomes it. */
  foldAbsorbed(id: string, absorbed: readonly string[]): void {
    let into = this.nodeOf(id)
    for (const alias of absorbed) {
      const gone = this.byId.get(alias)
      if (gone === undefined || gone === into) continue
      if (into !== undefined) {
        this.fold(into, gone)
        continue
      }
      // Not a new kind: the kind it was known as goes on under the survivor's id (a fold makes nothing new).
      this.forget(gone)
      gone.entry.aliases.push(gone.entry.id)
      gone.entry.id = id
      this.add(gone)
      into = gone
    }
  }

  /** An alias the miner gave: searched once per change of it, not on every line; a kind held under it folds. */
  addAlias(node: N, alias: string): void {
    node.lastAlias = alias
    if (node.entry.aliases.includes(alias)) return
    node.entry.aliases.push(alias)
    const other = this.byId.get(alias)
    if (other !== undefined && other !== node) this.fold(node, other)
    else this.byAlias.set(alias, node)
  }

  /** `gone` folded into `into` (kind-fold.ts) leaves the table; its ids answer `into` from now on. */
  private fold(into: N, gone: N): void {
    foldKind(into.entry, gone.entry)
    gone.order.delete(gone)
    this.forget(gone)
    into.hourBucket = undefined
    this.add(into)
  }
}
