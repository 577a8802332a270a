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
import { hash53 } from './hash53'
import { evictFrom, lineEnds, movesOnLine, restoredLastSeen, tickStep } from './absence-decisions'
import { absenceLine, define } from './absence-line'
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
  placedAt: number
  open: boolean
}

interface Watched {
  readonly rule: Rule
  readonly forMs: number
  readonly paths: readonly string[]
  readonly getters: readonly PathGetter[]
  /** By key text, least recently seen first (to within REORDER_MS: absence-decisions.ts, rule 1). */
  readonly live: Map<string, Entry>
  /** Restored keys no line has named since, by incident key (their text is not kept), oldest first. */
  readonly restored: Map<string, Entry>
}

/** What the watch holds beside its rules' keys. */
interface WatchState {
  readonly watched: readonly Watched[]
  readonly max: number
  readonly options: AbsenceWatchOptions
  evicted: number
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

function watchOf(rule: Rule): Watched | undefined {
  if (rule.absent === undefined) return undefined
  const paths = rule.groupBy ?? []
  const getters = paths.map(compilePath)
  return { rule, forMs: rule.absent.forMs, paths, getters, live: new Map(), restored: new Map() }
}

/** Rule 6 (absence-decisions.ts, rule 4). */
function bound(ws: WatchState, w: Watched): void {
  for (let from = evictFrom(w.live.size, w.restored.size, ws.max); from !== undefined;) {
    const entries = from === 'restored' ? w.restored : w.live
    entries.delete(entries.keys().next().value as string)
    ws.evicted++
    from = evictFrom(w.live.size, w.restored.size, ws.max)
  }
}

/** A key new to the live map: restored before, or new to the watch (its labels read once). */
function addKey(ws: WatchState, w: Watched, text: string, line: AlertLine, now: number): Entry {
  const key = keyOf(w, line.record)
  let entry = w.restored.get(key)
  if (entry !== undefined) {
    w.restored.delete(key)
    entry.lastSeen = now
    entry.placedAt = now
  } else {
    const clean = ws.options.clean(line).record
    const labels: Record<string, unknown> = {}
    w.paths.forEach((path, i) => define(labels, path, (w.getters[i] as PathGetter)(clean) ?? null))
    entry = { key, labels, lastSeen: now, placedAt: now, open: false }
  }
  // A key new to the watch may still have an incident: restored, or its watch dropped by the bound.
  entry.open = ws.options.isOpen(key)
  w.live.set(text, entry)
  bound(ws, w)
  return entry
}

/** Rules 1 and 4 for one rule: the key of the absence incident the line ends, if any. */
function seenBy(ws: WatchState, w: Watched, line: AlertLine, now: number): string | undefined {
  const text = textOf(w.getters, line.record)
  let entry = w.live.get(text)
  if (entry === undefined) {
    entry = addKey(ws, w, text, line, now)
  } else {
    entry.lastSeen = now
    if (movesOnLine(entry, now)) {
      entry.placedAt = now
      w.live.delete(text)
      w.live.set(text, entry)
    }
  }
  if (!lineEnds(entry)) return undefined
  entry.open = false
  return entry.key
}

/** Rule 3 for one rule: its keys due now, added to `out`. */
function dueOf(ws: WatchState, w: Watched, now: number, out: AbsenceDue[]): void {
  for (const entries of [w.restored, w.live]) {
    for (const entry of entries.values()) {
      const step = tickStep(entry, w.forMs, now)
      if (step === 'stop') break
      if (step === 'pass') continue
      entry.open = true
      if (!ws.options.isOpen(entry.key))
        out.push({ rule: w.rule, key: entry.key, line: absenceLine(w.rule, w.forMs, entry) })
    }
  }
}

/** Rule 5. */
function forgetKey(w: Watched, key: string): boolean {
  if (w.restored.delete(key)) return true
  for (const [text, entry] of w.live) {
    if (entry.key !== key) continue
    w.live.delete(text)
    return true
  }
  return false
}

/** Rule 7: the saved keys put back, oldest first so that the maps keep their recency order. */
function restoreKeys(ws: WatchState, saved: readonly AbsenceEntry[], resumedAt: number): number {
  const byName = new Map(ws.watched.map((w) => [w.rule.name, w]))
  const live = new Set(ws.watched.flatMap((w) => [...w.live.values()].map((e) => e.key)))
  let restored = 0
  for (const s of [...saved].sort((a, b) => a.lastSeen - b.lastSeen)) {
    const w = byName.get(s.rule)
    if (w === undefined) continue
    const watchedAlready = (key: string): boolean => live.has(key) || w.restored.has(key)
    const lastSeen = restoredLastSeen(s, w.paths, watchedAlready, resumedAt)
    if (lastSeen === undefined) continue
    w.restored.set(s.key, { key: s.key, labels: { ...s.labels }, lastSeen, placedAt: lastSeen, open: false })
    bound(ws, w)
    restored++
  }
  return restored
}

function entriesOf(w: Watched): Entry[] {
  return [...w.restored.values(), ...w.live.values()]
}

export function createAbsenceWatch(rules: readonly Rule[], options: AbsenceWatchOptions): AbsenceWatch {
  const watched = rules.map(watchOf).filter((w) => w !== undefined)
  const ws: WatchState = { watched, max: options.maxKeys ?? 10_000, options, evicted: 0 }

  function seen(line: AlertLine, now: number): string[] | undefined {
    let back: string[] | undefined
    for (const w of watched) {
      if (!ruleSelects(w.rule, line)) continue
      const ended = seenBy(ws, w, line, now)
      if (ended !== undefined) (back ??= []).push(ended)
    }
    return back
  }

  function due(now: number): AbsenceDue[] {
    const out: AbsenceDue[] = []
    for (const w of watched) dueOf(ws, w, now, out)
    return out
  }

  function state(): AbsenceEntry[] {
    return watched.flatMap((w) =>
      entriesOf(w).map((e) => ({ rule: w.rule.name, key: e.key, lastSeen: e.lastSeen, labels: { ...e.labels } })),
    )
  }

  function stats(): AbsenceStats {
    let keys = 0
    let open = 0
    for (const w of watched) {
      keys += w.live.size + w.restored.size
      for (const entries of [w.restored, w.live]) for (const e of entries.values()) if (e.open) open++
    }
    return { keys, open, evicted: ws.evicted }
  }

  return {
    active: watched.length > 0,
    seen,
    due,
    forget: (key) => watched.some((w) => forgetKey(w, key)),
    state,
    restore: (saved, resumedAt) => restoreKeys(ws, saved, resumedAt),
    stats,
  }
}
