// Absence rules: "no heartbeat lines from web1 for 5m". The watch keeps, per absence rule, when each
// group key last had a line; the engine (engine.ts) opens and resolves the incidents it calls for in
// the incident table, where they live like any other. Pure: time comes in as `now`.
//
// The rules, in the order they apply:
// 1. An absence rule selects lines like any rule (level, match, message, sources) but owns none:
//    every absence rule that selects a line records it, and the line then goes on to the ordinary
//    rules (selectRule passes over absence rules). Recording is the only cost per line: the key's
//    text, one map lookup and the time written into what it finds (a key new to the watch costs
//    more, once). Without absence rules the engine does none of it.
// 2. The key is the rule's group_by values (one key for a rule without group_by). Every key seen
//    once is watched, so one silent host of fifty fires alone; a key never seen is not watched.
// 3. At a tick, a watched key whose last line is `for` old or older opens an incident of its rule
//    (`no heartbeat lines for 5m (hostname=web1)`), unless one is open for it already. There is no
//    polling window: the check runs at every tick on the engine's own clock, so it fires at most
//    one tick period late and never early. From there it is an incident like any other (group_wait,
//    notify, escalate, acknowledge); it has no lines, so it neither repeats nor falls quiet
//    (threshold and resolve_after do not apply to absence rules).
// 4. The key's next line resolves it: a `resolved` notice to the channels of the steps reached,
//    whatever send_resolved says (whoever was paged wants to know it is back). One still in
//    group_wait paged nobody and resolves without a notice.
// 5. Resolved by hand, the key is forgotten (a host taken out of service stops paging); its next
//    line watches it again.
// 6. At most `maxKeys` keys per rule (default 10 000): past it the least recently seen (to within
//    a second) is dropped, counted in stats().evicted.
// 7. restore(state, resumedAt) puts the keys back with last line max(saved, resumedAt). Lines written
//    while the agent was down are read after it restarts, so until it has caught up a silent host
//    cannot be told from a silent agent: the time it was down never counts. Keys of rules that are
//    gone, are no longer absence rules or group by other fields are dropped.
import { compilePath, type PathGetter } from './dot-path'
import { hash53 } from './fingerprint'
import type { AlertLine } from './line'
import type { Rule } from './rule'
import { ruleSelects } from './select'

/** A watched key as the agent keeps it across a restart (JSON-safe). */
export interface AbsenceEntry {
  rule: string
  /** The incident key of this group key's absence incident. */
  key: string
  /** When its last line arrived (epoch ms). */
  lastSeen: number
  /** group_by path -> value of its lines (censored), e.g. `{ hostname: 'web1' }`. */
  labels: Record<string, unknown>
}

/** A key due to open an incident (rule 3): the line the incident opens with is made from its labels. */
export interface AbsenceDue {
  rule: Rule
  key: string
  line: AlertLine
}

export interface AbsenceStats {
  /** Keys watched, over every absence rule. */
  keys: number
  /** Keys whose absence incident is open, as far as the watch knows. */
  open: number
  /** Keys dropped past `maxKeys` (rule 6). */
  evicted: number
}

export interface AbsenceWatchOptions {
  /** Most keys watched per rule; default 10 000. */
  maxKeys?: number | undefined
  /** Whether an incident of this key is open: asked when a key is new to the watch or falls due, never per line. */
  isOpen(key: string): boolean
  /** The line as it may be shown (redact, secrets): the labels are read from it, once per new key. */
  clean(line: AlertLine): AlertLine
}

export interface AbsenceWatch {
  /** Whether any rule is an absence rule: without one, nothing needs calling. */
  readonly active: boolean
  /** Rules 1 and 4: records `line`; the keys of open absence incidents it ends (undefined: none). */
  seen(line: AlertLine, now: number): string[] | undefined
  /** Rule 3: the keys silent for their rule's `for` with no incident open; they count as open from now. */
  due(now: number): AbsenceDue[]
  /** Rule 5: stops watching the key of this incident. False when it was not watched. */
  forget(key: string): boolean
  /** Every watched key, least recently seen first. */
  state(): AbsenceEntry[]
  /** Rule 7; returns how many keys were put back. */
  restore(state: readonly AbsenceEntry[], resumedAt: number): number
  stats(): AbsenceStats
}

interface Entry {
  readonly key: string
  readonly labels: Record<string, unknown>
  lastSeen: number
  /** When it took its place in the map's order: lastSeen lies within REORDER_MS after it. */
  placedAt: number
  open: boolean
}

/**
 * A line moves its key to the end of the map only when the key took its place this long ago:
 * moving it on every line (a delete and a set) would cost more than all the rest of a line's
 * watch. So the maps are in recency order to within this, which is all the bound needs; due() is
 * exact all the same (it reads lastSeen).
 */
const REORDER_MS = 1000

interface Watched {
  readonly rule: Rule
  readonly forMs: number
  readonly paths: readonly string[]
  readonly getters: readonly PathGetter[]
  /** By key text, least recently seen first (to within REORDER_MS: see there). */
  readonly live: Map<string, Entry>
  /** Restored keys no line has named since, by incident key (their text is not kept), least recently seen first. */
  readonly restored: Map<string, Entry>
}

/** `5m`, `1h30m`, `90ms`: a duration as the config writes it. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms))
  let out = ''
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (rest < size) continue
    out += `${Math.floor(rest / size)}${unit}`
    rest %= size
  }
  return rest > 0 || out === '' ? `${out}${rest}ms` : out
}

const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

/** The message of an absence incident: `no heartbeat lines for 5m (hostname=web1)`. */
export function absenceMessage(rule: string, forMs: number, labels: Readonly<Record<string, unknown>>): string {
  const named = Object.entries(labels).map(([path, value]) => `${path}=${shown(value)}`)
  return `no ${rule} lines for ${formatDuration(forMs)}${named.length === 0 ? '' : ` (${named.join(', ')})`}`
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` in a group_by path is a plain key here as in a parsed line.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** `value` at dot `path` of `record`, making (or copying) the objects on the way. */
function put(record: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.')
  let at = record
  for (const segment of segments.slice(0, -1)) {
    const next = Object.hasOwn(at, segment) ? at[segment] : undefined
    const object: Record<string, unknown> =
      typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...next } : {}
    define(at, segment, object)
    at = object
  }
  define(at, segments[segments.length - 1] as string, value)
}

/**
 * The line an absence incident opens with: the labels at their paths (so `{{hostname}}` in a
 * template, silences and inhibition on line fields work), the message, and when the last line came.
 */
export function absenceLine(rule: Rule, forMs: number, entry: Pick<AbsenceEntry, 'lastSeen' | 'labels'>): AlertLine {
  const msg = absenceMessage(rule.name, forMs, entry.labels)
  const record: Record<string, unknown> = {}
  for (const [path, value] of Object.entries(entry.labels)) put(record, path, value)
  define(record, 'msg', msg)
  define(record, 'last_line_at', new Date(entry.lastSeen).toISOString())
  return { raw: JSON.stringify(record), record, level: undefined, msg, source: undefined, json: true }
}

/** The key's text (rule 2): cheap, since it is made for every line. */
function textOf(getters: readonly PathGetter[], record: Readonly<Record<string, unknown>>): string {
  if (getters.length === 1) {
    const value = (getters[0] as PathGetter)(record)
    // The one common case, a host name, costs no JSON; other values (and a string that starts like
    // them) are marked apart, in JSON, which never holds a raw NUL.
    return typeof value === 'string' && value.charCodeAt(0) !== 0 ? value : `\u0000${JSON.stringify(value ?? null)}`
  }
  let text = ''
  for (const get of getters) text += `${JSON.stringify(get(record) ?? null)}\u0000`
  return text
}

/** The incident key: as fingerprint() makes it for a rule with group_by (the rule alone without). */
function keyOf(w: Watched, record: Readonly<Record<string, unknown>>): string {
  const parts = w.paths.map((path, i) => `${path}=${JSON.stringify((w.getters[i] as PathGetter)(record) ?? null)}`)
  return `${w.rule.name}:${hash53(parts.join('\u0000'))}`
}

function sameGrouping(paths: readonly string[], labels: unknown): labels is Record<string, unknown> {
  if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) return false
  const keys = Object.keys(labels)
  return keys.length === paths.length && paths.every((path) => Object.hasOwn(labels, path))
}

export function createAbsenceWatch(rules: readonly Rule[], options: AbsenceWatchOptions): AbsenceWatch {
  const max = options.maxKeys ?? 10_000
  const watched: Watched[] = []
  for (const rule of rules) {
    if (rule.absent === undefined) continue
    const paths = rule.groupBy ?? []
    watched.push({
      rule,
      forMs: rule.absent.forMs,
      paths,
      getters: paths.map(compilePath),
      live: new Map(),
      restored: new Map(),
    })
  }
  let evicted = 0

  function bound(w: Watched): void {
    while (w.live.size + w.restored.size > max) {
      // Keys no line named since the restart were seen least recently of all.
      const from = w.restored.size > 0 ? w.restored : w.live
      from.delete(from.keys().next().value as string)
      evicted++
    }
  }

  function add(w: Watched, text: string, line: AlertLine, now: number): Entry {
    const key = keyOf(w, line.record)
    let entry = w.restored.get(key)
    if (entry !== undefined) {
      w.restored.delete(key)
      entry.lastSeen = now
      entry.placedAt = now
    } else {
      const clean = options.clean(line).record
      const labels: Record<string, unknown> = {}
      w.paths.forEach((path, i) => define(labels, path, (w.getters[i] as PathGetter)(clean) ?? null))
      entry = { key, labels, lastSeen: now, placedAt: now, open: false }
    }
    // A key new to the watch may still have an incident: restored, or its watch dropped by the bound.
    entry.open = options.isOpen(key)
    w.live.set(text, entry)
    bound(w)
    return entry
  }

  function seen(line: AlertLine, now: number): string[] | undefined {
    let back: string[] | undefined
    for (const w of watched) {
      if (!ruleSelects(w.rule, line)) continue
      const text = textOf(w.getters, line.record)
      let entry = w.live.get(text)
      if (entry === undefined) {
        entry = add(w, text, line, now)
      } else {
        entry.lastSeen = now
        if (now - entry.placedAt >= REORDER_MS) {
          entry.placedAt = now
          w.live.delete(text)
          w.live.set(text, entry)
        }
      }
      if (entry.open) {
        entry.open = false
        ;(back ??= []).push(entry.key)
      }
    }
    return back
  }

  function due(now: number): AbsenceDue[] {
    const out: AbsenceDue[] = []
    for (const w of watched) {
      for (const entries of [w.restored, w.live]) {
        for (const entry of entries.values()) {
          // In the order they took their places: past the first placed within `for`, none is due.
          if (now - entry.placedAt < w.forMs) break
          if (entry.open || now - entry.lastSeen < w.forMs) continue
          entry.open = true
          if (!options.isOpen(entry.key))
            out.push({ rule: w.rule, key: entry.key, line: absenceLine(w.rule, w.forMs, entry) })
        }
      }
    }
    return out
  }

  function forget(key: string): boolean {
    for (const w of watched) {
      if (w.restored.delete(key)) return true
      for (const [text, entry] of w.live) {
        if (entry.key !== key) continue
        w.live.delete(text)
        return true
      }
    }
    return false
  }

  function state(): AbsenceEntry[] {
    const out: AbsenceEntry[] = []
    for (const w of watched) {
      for (const entries of [w.restored, w.live]) {
        for (const e of entries.values())
          out.push({ rule: w.rule.name, key: e.key, lastSeen: e.lastSeen, labels: { ...e.labels } })
      }
    }
    return out
  }

  function restore(saved: readonly AbsenceEntry[], resumedAt: number): number {
    const byName = new Map(watched.map((w) => [w.rule.name, w]))
    const live = new Set(watched.flatMap((w) => [...w.live.values()].map((e) => e.key)))
    let restored = 0
    // Oldest first, so that the maps keep their recency order.
    for (const s of [...saved].sort((a, b) => a.lastSeen - b.lastSeen)) {
      const w = byName.get(s.rule)
      if (
        w === undefined ||
        typeof s.key !== 'string' ||
        !Number.isFinite(s.lastSeen) ||
        !sameGrouping(w.paths, s.labels)
      )
        continue
      if (live.has(s.key) || w.restored.has(s.key)) continue
      const lastSeen = Math.max(s.lastSeen, resumedAt)
      w.restored.set(s.key, { key: s.key, labels: { ...s.labels }, lastSeen, placedAt: lastSeen, open: false })
      bound(w)
      restored++
    }
    return restored
  }

  function stats(): AbsenceStats {
    let keys = 0
    let open = 0
    for (const w of watched) {
      keys += w.live.size + w.restored.size
      for (const entries of [w.restored, w.live]) for (const e of entries.values()) if (e.open) open++
    }
    return { keys, open, evicted }
  }

  return { active: watched.length > 0, seen, due, forget, state, restore, stats }
}
