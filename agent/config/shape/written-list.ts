// Helpers for reading the checked written config, where a failed value is undefined and a list
// that may be written as one item (`source: api`) arrives unwrapped.
import type { Segment } from '../load/yaml-source'

export interface Located<T> {
  value: T
  path: readonly Segment[]
}

/** Items of a list (or the single item), with the path each one has in the file; failed items skipped. */
export function listItems<T>(value: T | T[] | undefined, path: readonly Segment[]): Located<T>[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) return [{ value, path }]
  const out: Located<T>[] = []
  value.forEach((item, i) => {
    if (item !== undefined) out.push({ value: item, path: [...path, i] })
  })
  return out
}

/** Entries of a mapping with their paths. */
export function mapEntries<T>(
  value: Record<string, T> | undefined,
  path: readonly Segment[],
): (Located<T> & { key: string })[] {
  if (value === undefined) return []
  return Object.entries(value).map(([key, item]) => ({ key, value: item, path: [...path, key] }))
}
