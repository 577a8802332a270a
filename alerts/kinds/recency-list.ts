// Items in the order they were last seen, least recently seen first, for a bound's eviction (the
// miner's kinds, the kind table's): a list threaded through the items themselves, so that a line's
// touch is a few pointer moves, not a Map's delete and set on every line.

/** The links an item carries for the one list it is in. */
export interface RecencyLinks<T> {
  older?: T | undefined
  newer?: T | undefined
  listed?: boolean | undefined
}

export class RecencyList<T extends RecencyLinks<T>> {
  size = 0
  private oldest: T | undefined
  private newest: T | undefined

  /** The item becomes the most recently seen (listed if it was not). */
  touch(item: T): void {
    if (this.newest === item) return
    if (item.listed === true) this.unlink(item)
    item.older = this.newest
    item.newer = undefined
    if (this.newest !== undefined) this.newest.newer = item
    else this.oldest = item
    this.newest = item
    item.listed = true
    this.size++
  }

  delete(item: T): void {
    if (item.listed === true) this.unlink(item)
  }

  /** The least recently seen. */
  first(): T | undefined {
    return this.oldest
  }

  *values(): IterableIterator<T> {
    for (let at = this.oldest; at !== undefined; at = at.newer) yield at
  }

  private unlink(item: T): void {
    if (item.older !== undefined) item.older.newer = item.newer
    else this.oldest = item.newer
    if (item.newer !== undefined) item.newer.older = item.older
    else this.newest = item.older
    item.older = undefined
    item.newer = undefined
    item.listed = false
    this.size--
  }
}
