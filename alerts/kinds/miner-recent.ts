// A source's kinds in the order they were last seen, for the bound's eviction (least recently seen
// first): a list threaded through the kinds themselves, so that a line's touch is a few pointer
// moves, not a Map's delete and set of the kind's id on every line that changes kind.
import type { TreeKind } from './miner-tree'

export class RecentKinds {
  size = 0
  private oldest: TreeKind | undefined
  private newest: TreeKind | undefined

  /** The kind becomes the most recently seen (listed if it was not). */
  touch(kind: TreeKind): void {
    if (this.newest === kind) return
    if (kind.listed === true) this.unlink(kind)
    kind.older = this.newest
    kind.newer = undefined
    if (this.newest !== undefined) this.newest.newer = kind
    else this.oldest = kind
    this.newest = kind
    kind.listed = true
    this.size++
  }

  delete(kind: TreeKind): void {
    if (kind.listed === true) this.unlink(kind)
  }

  first(): TreeKind | undefined {
    return this.oldest
  }

  *values(): IterableIterator<TreeKind> {
    for (let at = this.oldest; at !== undefined; at = at.newer) yield at
  }

  private unlink(kind: TreeKind): void {
    if (kind.older !== undefined) kind.older.newer = kind.newer
    else this.oldest = kind.newer
    if (kind.newer !== undefined) kind.newer.older = kind.older
    else this.newest = kind.older
    kind.older = undefined
    kind.newer = undefined
    kind.listed = false
    this.size--
  }
}
