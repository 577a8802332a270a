// The template miner: each event gets a kind (issue #29), a stable id for what stays the same when
// one thing happens again. Pure (no I/O, no clock), synchronous, bounded. Per source:
//  1. The event's masked form (miner-message.ts, miner-form.ts): the message without its head,
//     variables as `<*>` (miner-mask.ts); a stack's type and in-app frames; a JSON line's message
//     after `err.type`.
//  2. The grouping (miner-tree.ts): a repeat of a known form is found by the form; else the line
//     joins the most similar kind of its leaf when the place it differs at is a variable, merging the
//     kinds that showed the other values, or starts a kind.
//  3. The id: the first 16 hex digits of sha256(source, NUL, template) of the kind's first form,
//     computed once per new template, never per line. When the template generalises, or absorbs
//     another kind, the kind keeps its id (the oldest kind of a merge survives) and the new template's
//     own id and the absorbed kind's id become aliases (`aliasOf`, `resolve`); the ref of the line
//     that merged names the absorbed ids (`absorbed`), so a table folds their entries. Canonical across
//     orders: the final templates, hence their ids (`aliasOf`, or `id` when none), are the same for the
//     same lines in any order (a test shuffles; on loghub's nine sets 98-100% of lines get the same
//     final template in five shuffles); the first-form `id` is the same wherever a group's lines mask
//     to one form, as most do, and a fleet that differs reconciles through the aliases it seeds.
//  4. The bound: `max` kinds per source; past it the least recently seen is evicted (counted).
// A consumer that wants the final grouping of lines already mined (a benchmark, a report) maps each
// id through `resolve` at the end: a line mined before a merge carries the absorbed kind's id.
import { createHash } from 'node:crypto'
import type { AlertLine } from '../line'
import { FormMemo } from './miner-memo'
import { eventForm } from './miner-message'
import { RecencyList } from './recency-list'
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
  /** Kinds least recently seen first. */
  recent: RecencyList<TreeKind>
  /** Every id (own and alias) to its kind. */
  ids: Map<string, TreeKind>
  memo: FormMemo
}

/** What the miner holds, summed over its sources: a test of the bound counts these, not bytes. */
export interface KindMinerSizes {
  recent: number
  ids: number
  aliases: number
  leaves: number
  leafKinds: number
  exactForms: number
  /** Events' forms the memos keep (miner-memo.ts, at most MEMO_MAX a source). */
  memoForms: number
}

/** A kind's ref as it stands, made again only when its template or aliases changed (miner-tree.ts clears it). */
function refOf(kind: TreeKind): KindRef {
  if (kind.ref !== undefined) return kind.ref
  const aliasOf = kind.aliases[kind.aliases.length - 1]
  // `absorbed` listed (undefined) so that every ref, a merge's too, has one shape where the table reads it.
  kind.ref = { id: kind.id, template: kind.template, created: false, aliasOf, absorbed: undefined }
  return kind.ref
}

/** The ids a merge made aliases of its survivor: each absorbed kind's own and its aliases (kinds it took in). */
function absorbedIds(absorbed: readonly TreeKind[]): string[] {
  const ids: string[] = []
  for (const kind of absorbed) ids.push(kind.id, ...kind.aliases)
  return ids
}

export function createKindMiner(options: KindMinerOptions): KindMiner & { sizes(): KindMinerSizes } {
  const max = Math.max(1, Math.floor(options.max))
  const sources = new Map<string, SourceKinds>()
  const totals: KindMinerStats = { kinds: 0, evicted: 0, mined: 0 }

  function sourceOf(source: string | undefined): SourceKinds {
    const key = source ?? ''
    let found = sources.get(key)
    if (found === undefined) {
      found = {
        tree: new KindTree(4 * max + 1024, (template) => kindId(source, template)),
        recent: new RecencyList<TreeKind>(),
        ids: new Map(),
        memo: new FormMemo(),
      }
      sources.set(key, found)
    }
    return found
  }

  function admit(kinds: SourceKinds, kind: TreeKind): void {
    kinds.recent.touch(kind)
    kinds.ids.set(kind.id, kind)
    for (const alias of kind.aliases) kinds.ids.set(alias, kind)
    totals.kinds++
    while (kinds.recent.size > max) {
      evict(kinds, kinds.recent.first() as TreeKind)
    }
  }

  function evict(kinds: SourceKinds, kind: TreeKind): void {
    kinds.tree.evict(kind)
    kinds.recent.delete(kind)
    kinds.ids.delete(kind.id)
    for (const alias of kind.aliases) kinds.ids.delete(alias)
    totals.kinds--
    totals.evicted++
  }

  return {
    mine(line: AlertLine): KindRef {
      totals.mined++
      const kinds = sourceOf(line.source)
      const form = eventForm(line, kinds.memo)
      // A repeat of a known form (most lines): its kind's ref as it stands, nothing made for the line.
      const known = kinds.tree.known(form)
      if (known !== undefined) {
        kinds.recent.touch(known)
        return refOf(known)
      }
      const placed = kinds.tree.place(form)
      const kind = placed.kind
      if (placed.created) admit(kinds, kind)
      else {
        kinds.recent.touch(kind)
        for (const gone of placed.absorbed) {
          kinds.recent.delete(gone)
          totals.kinds--
        }
        if (placed.generalised) for (const alias of kind.aliases) kinds.ids.set(alias, kind)
      }
      if (placed.created) return { ...refOf(kind), created: true }
      return placed.absorbed.length === 0 ? refOf(kind) : { ...refOf(kind), absorbed: absorbedIds(placed.absorbed) }
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
    sizes() {
      const sum: KindMinerSizes = {
        recent: 0,
        ids: 0,
        aliases: 0,
        leaves: 0,
        leafKinds: 0,
        exactForms: 0,
        memoForms: 0,
      }
      for (const kinds of sources.values()) {
        const tree = kinds.tree.sizes()
        sum.recent += kinds.recent.size
        sum.ids += kinds.ids.size
        for (const kind of kinds.recent.values()) sum.aliases += kind.aliases.length
        sum.leaves += tree.leaves
        sum.leafKinds += tree.leafKinds
        sum.exactForms += tree.exactForms
        sum.memoForms += kinds.memo.size
      }
      return sum
    },
  }
}
