// One kind folded into another (issue #29): the miner merged them (miner-tree.ts rule 3: the oldest
// kind survives, the others' ids become its aliases), so the table keeps one entry for them, under the
// survivor's id, and answers the absorbed ids with it. Pure: `foldKind` changes the survivor's entry in
// place (the table's own, or a restart's copy); the absorbed entry is left as it was, for the caller to
// drop. The kind-table observes a merge's ref (`KindRef.absorbed`) with it and restores with
// `foldRestored`. The rules of a fold, the survivor `into` taking the absorbed `gone`:
//  1. counts add;
//  2. hourly counts add hour by hour (the last 7 days kept, as the table keeps them);
//  3. hosts join, the survivor's first, then those of the absorbed kind it lacks, at most MAX_HOSTS;
//  4. firstSeen is the earlier; lastSeen and lastResolved the later;
//  5. the incident is the survivor's, else the absorbed kind's;
//  6. learned when either was (a kind learned is never paged as new, whichever name its lines had);
//  7. paged when either was (a kind without the mark counts as handled: paged), then nothing is
//     pending; else each rule's pending times join, oldest first (both kinds' lines count toward it);
//  8. the absorbed id and its aliases become the survivor's aliases (once each, never its own id);
//  9. the survivor keeps its id, source, template, level and sample (an empty sample takes the
//     absorbed kind's).
// A restart's entries (`foldRestored`; kinds.jsonl keeps an absorbed kind's last records until a
// compaction rewrites the file from the table, so a restart may read the absorbed kind beside the
// survivor whose aliases name it):
// 10. an entry whose id is another entry's alias goes into that one (following a chain of them to the
//     kind that is nobody's alias; a cycle is left as it is);
// 11. unless it was last seen no later than that kind: then it is a record from before the fold,
//     whose counts and marks the survivor's own record (written after the fold) holds already, and
//     it is dropped; one seen later came back after the survivor left the table (the bound), and is
//     folded by rules 1 to 9.
import { trimHourly } from './kind-table-hourly'
import type { HourlyCounts, KindEntry, PendingNew } from './types'

/** Hosts kept per kind, most recent first. */
export const MAX_HOSTS = 16

/** Rule 2: both sorted by hour; a new array, so a table's cached last bucket is not the survivor's any more. */
function addedHourly(a: HourlyCounts, b: HourlyCounts, now: number): HourlyCounts {
  const sum: HourlyCounts = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const x = a[i]
    const y = b[j]
    if (y === undefined || (x !== undefined && x[0] < y[0])) {
      sum.push([(x as [number, number])[0], (x as [number, number])[1]])
      i++
    } else if (x === undefined || y[0] < x[0]) {
      sum.push([y[0], y[1]])
      j++
    } else {
      sum.push([x[0], x[1] + y[1]])
      i++
      j++
    }
  }
  trimHourly(sum, now)
  return sum
}

/** Rule 3. */
function joinedHosts(into: readonly string[], gone: readonly string[]): string[] {
  const hosts = [...into]
  for (const host of gone) if (hosts.length < MAX_HOSTS && !hosts.includes(host)) hosts.push(host)
  return hosts
}

const later = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b)

/** Rule 7's join of what each rule counted toward its min_count. */
function joinedPending(
  a: readonly PendingNew[] | undefined,
  b: readonly PendingNew[] | undefined,
): PendingNew[] | undefined {
  if (b === undefined || b.length === 0) return a?.map(([rule, times]): PendingNew => [rule, [...times]])
  const byRule = new Map<string, number[]>()
  for (const [rule, times] of [...(a ?? []), ...b]) byRule.set(rule, [...(byRule.get(rule) ?? []), ...times])
  return [...byRule].map(([rule, times]): PendingNew => [rule, times.sort((x, y) => x - y)])
}

/** Rule 8. */
function joinedAliases(into: KindEntry, gone: KindEntry): string[] {
  const aliases = [...into.aliases]
  for (const id of [gone.id, ...gone.aliases]) if (id !== into.id && !aliases.includes(id)) aliases.push(id)
  return aliases
}

/** Rules 1 to 9: `gone`'s entry folded into `into`'s (changed in place); `gone` is left as it was. */
export function foldKind(into: KindEntry, gone: KindEntry): void {
  into.count += gone.count
  into.hourly = addedHourly(into.hourly, gone.hourly, Math.max(into.lastSeen, gone.lastSeen))
  into.hosts = joinedHosts(into.hosts, gone.hosts)
  into.firstSeen = Math.min(into.firstSeen, gone.firstSeen)
  into.lastSeen = Math.max(into.lastSeen, gone.lastSeen)
  into.lastResolved = later(into.lastResolved, gone.lastResolved)
  into.incident ??= gone.incident
  into.learned = into.learned || gone.learned
  const paged = into.paged !== false || gone.paged !== false
  into.paged = paged
  into.pending = paged ? undefined : joinedPending(into.pending, gone.pending)
  into.aliases = joinedAliases(into, gone)
  if (into.sample === '') into.sample = gone.sample
}

/** Rule 10: the kind an entry's id is an alias of, followed to the end; undefined when it is nobody's alias. */
function rootOf(entry: KindEntry, ownerOf: ReadonlyMap<string, KindEntry>): KindEntry | undefined {
  const seen = new Set<KindEntry>([entry])
  let at = ownerOf.get(entry.id)
  while (at !== undefined) {
    if (seen.has(at)) return undefined
    seen.add(at)
    const next = ownerOf.get(at.id)
    if (next === undefined) return at
    at = next
  }
  return undefined
}

/**
 * Rules 10 and 11 on a restart's entries: the entries that are nobody's alias, the others folded into
 * them or dropped. The survivors are changed in place (hand it copies); the order is kept.
 */
export function foldRestored(entries: readonly KindEntry[]): KindEntry[] {
  const ownerOf = new Map<string, KindEntry>()
  // An alias two entries name: the one seen last holds it (the table answers it so after a restart).
  for (const entry of [...entries].sort((a, b) => a.lastSeen - b.lastSeen))
    for (const alias of entry.aliases) if (alias !== entry.id) ownerOf.set(alias, entry)
  const roots = new Map<KindEntry, KindEntry>()
  for (const entry of entries) {
    const root = rootOf(entry, ownerOf)
    if (root !== undefined) roots.set(entry, root)
  }
  if (roots.size === 0) return [...entries]
  // Rule 11 reads the survivors' lastSeen as the file had it, before this restore folds anything in.
  const lastSeen = new Map([...roots.values()].map((root) => [root, root.lastSeen]))
  for (const [entry, root] of roots) if (entry.lastSeen > (lastSeen.get(root) ?? Infinity)) foldKind(root, entry)
  return entries.filter((entry) => !roots.has(entry))
}
