// The template miner: each event gets a kind (issue #29), a stable id for what stays the same when
// one thing happens again. Pure (no I/O, no clock), synchronous, bounded. Per source:
//  1. The event's tokens (miner-message.ts): the message without its head, variables masked
//     (miner-mask.ts); a stack's type and in-app frames; a JSON line's message and `err.type`.
//  2. The grouping (miner-tree.ts): the line joins the most similar kind of its leaf, generalising
//     its template, or starts a kind.
//  3. The id: the first 16 hex digits of sha256(source, NUL, template) of the kind's first form,
//     computed once per new template, never per line. When the template generalises, the kind keeps
//     its id and the new form's own id becomes an alias (`aliasOf`, `resolve`). Two miners that see
//     the same lines in other orders end with the same groups and the same final templates, hence the
//     same alias ids; the first-form id is the same wherever the group's lines mask to one form (the
//     masking puts every digit-bearing part to `<*>`), and otherwise a fleet agrees through the
//     aliases it seeds.
//  4. The bound: `max` kinds per source; past it the least recently seen is evicted (counted).
import { createHash } from 'node:crypto'
import type { AlertLine } from '../line'
import { eventForm } from './miner-message'
import { KindTree, type TreeKind } from './miner-tree'
import type { KindMiner, KindMinerOptions, KindMinerStats, KindRef } from './types'

export const ID_HEX = 16

/** The id of a template of a source: never per line, once per new form. */
export function kindId(source: string | undefined, template: string): string {
  return createHash('sha256')
    .update(`${source ?? ''}\u0000${template}`)
    .digest('hex')
    .slice(0, ID_HEX)
}

interface SourceKinds {
  tree: KindTree
  /** Kinds by id, least recently seen first (a Map keeps insertion order; a touch re-inserts). */
  recent: Map<string, TreeKind>
  /** Every id (own and alias) to its kind. */
  ids: Map<string, TreeKind>
  /** The kind seen last: the most recent in `recent` already. */
  last: TreeKind | undefined
}

export function createKindMiner(options: KindMinerOptions): KindMiner {
  const max = Math.max(1, Math.floor(options.max))
  const sources = new Map<string, SourceKinds>()
  const totals: KindMinerStats = { kinds: 0, evicted: 0, mined: 0 }

  function sourceOf(source: string | undefined): SourceKinds {
    const key = source ?? ''
    let found = sources.get(key)
    if (found === undefined) {
      found = {
        tree: new KindTree(4 * max + 1024, (template) => kindId(source, template)),
        recent: new Map(),
        ids: new Map(),
        last: undefined,
      }
      sources.set(key, found)
    }
    return found
  }

  function admit(kinds: SourceKinds, kind: TreeKind): void {
    kinds.recent.set(kind.id, kind)
    kinds.ids.set(kind.id, kind)
    for (const alias of kind.aliases) kinds.ids.set(alias, kind)
    totals.kinds++
    while (kinds.recent.size > max) {
      const oldest = kinds.recent.values().next().value as TreeKind
      evict(kinds, oldest)
    }
  }

  function evict(kinds: SourceKinds, kind: TreeKind): void {
    kinds.tree.remove(kind)
    kinds.recent.delete(kind.id)
    kinds.ids.delete(kind.id)
    for (const alias of kind.aliases) kinds.ids.delete(alias)
    totals.kinds--
    totals.evicted++
  }

  return {
    mine(line: AlertLine): KindRef {
      totals.mined++
      const kinds = sourceOf(line.source)
      const placed = kinds.tree.place(eventForm(line))
      const kind = placed.kind
      if (placed.created) admit(kinds, kind)
      else {
        // Re-inserted as the most recent; a run of one kind (the usual) skips the Map's work.
        if (kinds.last !== kind) {
          kinds.recent.delete(kind.id)
          kinds.recent.set(kind.id, kind)
        }
        for (const gone of placed.absorbed) {
          kinds.recent.delete(gone.id)
          totals.kinds--
        }
        if (placed.generalised) for (const alias of kind.aliases) kinds.ids.set(alias, kind)
      }
      kinds.last = kind
      const alias = kind.aliases[kind.aliases.length - 1]
      return { id: kind.id, template: kind.template, created: placed.created, aliasOf: alias }
    },
    seed(source, seeded) {
      const kinds = sourceOf(source)
      for (const known of seeded) {
        if (kinds.ids.has(known.id)) continue
        const kind = kinds.tree.seeded(known.id, known.template, known.aliases ?? [])
        admit(kinds, kind)
      }
    },
    resolve(source, id) {
      return sources.get(source ?? '')?.ids.get(id)?.id
    },
    stats: () => ({ ...totals }),
  }
}
