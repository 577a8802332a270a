// Counts over a sliding window, per key, for spike and ratio rules: sparse buckets (`[start, count]`,
// oldest first) of a fixed width, so a rare kind costs a few numbers and a busy one at most
// span / width; keys bounded, least recently counted dropped.

export interface WindowCounts {
  add(key: string, at: number, count: number): void
  /** Lines of `key` in buckets starting within [from, to). */
  sum(key: string, from: number, to: number): number
  readonly size: number
}

export function createWindowCounts(bucketMs: number, spanMs: number, maxKeys: number): WindowCounts {
  const byKey = new Map<string, [number, number][]>()
  return {
    add(key, at, count) {
      const start = Math.floor(at / bucketMs) * bucketMs
      let buckets = byKey.get(key)
      if (buckets === undefined) buckets = []
      else byKey.delete(key)
      byKey.set(key, buckets)
      const last = buckets[buckets.length - 1]
      if (last !== undefined && last[0] === start) last[1] += count
      else if (last === undefined || last[0] < start) buckets.push([start, count])
      // A late count (an older line) goes to the last bucket: a window is an approximation already.
      else last[1] += count
      let drop = 0
      while (drop < buckets.length && (buckets[drop]?.[0] ?? start) <= start - spanMs - bucketMs) drop++
      if (drop > 0) buckets.splice(0, drop)
      if (byKey.size > maxKeys) {
        const oldest = byKey.keys().next().value
        if (oldest !== undefined) byKey.delete(oldest)
      }
    },
    sum(key, from, to) {
      let total = 0
      for (const [start, count] of byKey.get(key) ?? []) if (start >= from && start < to) total += count
      return total
    },
    get size() {
      return byKey.size
    },
  }
}
