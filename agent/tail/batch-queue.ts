// The hand-off between the reader and the consumer: a bounded queue read as an async iterator.
// The reader awaits push() so a slow consumer pauses reading instead of growing memory.

export interface BatchQueue<T> extends AsyncIterable<T> {
  /** Resolves when the queue has room again (at once while below the limit). */
  push(item: T): Promise<void>
  /**
   * Ends iteration once the queued items are consumed (or at once, dropping them, with `discard`); pending and later
   * pushes resolve at once.
   */
  close(discard?: boolean): void
  readonly size: number
}

export function createBatchQueue<T>(limit: number): BatchQueue<T> {
  const items: T[] = []
  let head = 0
  let closed = false
  let wakeConsumer: (() => void) | undefined
  const producers: Array<() => void> = []

  function size(): number {
    return items.length - head
  }

  function take(): T | undefined {
    if (head === items.length) return undefined
    const item = items[head] as T
    items[head] = undefined as T
    head++
    // Compact now and then instead of shift() per item.
    if (head > 1024 && head * 2 > items.length) {
      items.splice(0, head)
      head = 0
    }
    while (producers.length > 0 && size() < limit) producers.shift()?.()
    return item
  }

  return {
    push(item) {
      if (closed) return Promise.resolve()
      items.push(item)
      wakeConsumer?.()
      wakeConsumer = undefined
      if (size() < limit) return Promise.resolve()
      return new Promise((resolve) => producers.push(resolve))
    },
    close(discard = false) {
      closed = true
      if (discard) {
        items.length = 0
        head = 0
      }
      wakeConsumer?.()
      wakeConsumer = undefined
      for (const resolve of producers.splice(0)) resolve()
    },
    get size() {
      return size()
    },
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<T>> {
          for (;;) {
            const item = take()
            if (item !== undefined) return { value: item, done: false }
            if (closed) return { value: undefined, done: true }
            await new Promise<void>((resolve) => {
              wakeConsumer = resolve
            })
          }
        },
        async return(): Promise<IteratorResult<T>> {
          return { value: undefined, done: true }
        },
      }
    },
  }
}
