// The crash drill's tools: a seeded generator (a failing run replays with its seed), and the count
// of what the sandbox received per incident step (its page, its lead, each of its activities), told
// apart by the Idempotency-Key the agent sends with each outbox item: the same key twice is a resend
// of one item (at-least-once: the agent died between the far end's answer and the journal's
// 'done'), two keys for one step is the step done again by a new item (the agent forgot it had
// paged, or that the incident had a lead): a defect.
import type { ChildProcess } from 'node:child_process'
import { expect } from 'vitest'
import type { SandboxRecord } from '../../agent/daemon/helpers'
import { peakRssOf } from './report'

/** mulberry32: small, fast, seeded; [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What one kind of record (pages, leads, activities) looks like against the steps expected. */
export interface KeyedCount {
  /** Steps expected (one record each). */
  expected: number
  /** Expected steps with no record at all. */
  lost: number
  /** Records beyond one per step. */
  duplicated: number
  /** Of those, resends of one outbox item (same key). */
  resends: number
  /** Of those, the step done again under another key: a defect. */
  repeats: number
  /** Records that carry no key (the key is what tells resends from repeats). */
  unkeyed: number
  /** Records of the drill's incidents that are no expected step (say, a kind of activity not planned for). */
  unexpected: number
  /** A few steps with more than one key, for the failure message. */
  repeated: string[]
  missing: string[]
}

/** One record as the count sees it: the step it belongs to (undefined: not one of the drill's) and its key. */
export interface KeyedRecord {
  step: string | undefined
  key: unknown
}

export function countKeyed(records: Iterable<KeyedRecord>, expected: readonly string[]): KeyedCount {
  const keysOf = new Map<string, string[]>()
  let unkeyed = 0
  for (const { step, key } of records) {
    if (step === undefined) continue
    if (typeof key !== 'string') unkeyed++
    const keys = keysOf.get(step) ?? []
    keys.push(typeof key === 'string' ? key : `unkeyed-${keys.length}`)
    keysOf.set(step, keys)
  }
  let lost = 0
  let duplicated = 0
  let resends = 0
  let repeats = 0
  const repeated: string[] = []
  const missing: string[] = []
  for (const step of expected) {
    const keys = keysOf.get(step) ?? []
    if (keys.length === 0) {
      lost++
      if (missing.length < 10) missing.push(step)
      continue
    }
    const distinct = new Set(keys).size
    duplicated += keys.length - 1
    resends += keys.length - distinct
    repeats += distinct - 1
    if (distinct > 1 && repeated.length < 10) repeated.push(`${step} x${distinct}`)
  }
  // Counted apart, so a change in what the agent records cannot pass unseen.
  const wanted = new Set(expected)
  let unexpected = 0
  for (const [step, keys] of keysOf) {
    if (wanted.has(step)) continue
    unexpected += keys.length
    if (repeated.length < 10) repeated.push(`${step} (unexpected) x${keys.length}`)
  }
  return { expected: expected.length, lost, duplicated, resends, repeats, unkeyed, unexpected, repeated, missing }
}

/**
 * The drill's pages: `incidentOf` finds the incident a message is about (undefined: not one of the
 * drill's); `kind` is the record kind of the page (sms). One page expected per incident.
 */
export function countPages(
  all: readonly SandboxRecord[],
  kind: string,
  expected: readonly string[],
  incidentOf: (record: Record<string, unknown>) => string | undefined,
): KeyedCount {
  return countKeyed(
    all.filter((e) => e.kind === kind).map((e) => ({ step: incidentOf(e.record), key: e.record['idempotency_key'] })),
    expected,
  )
}

/** The drill's leads: one per incident, named by `incidentOf` from the lead's fields. */
export function countLeads(
  all: readonly SandboxRecord[],
  expected: readonly string[],
  incidentOf: (record: Record<string, unknown>) => string | undefined,
): KeyedCount {
  return countKeyed(
    all.filter((e) => e.kind === 'lead').map((e) => ({ step: incidentOf(e.record), key: e.record['idempotency_key'] })),
    expected,
  )
}

/**
 * The drill's activities: each belongs to the incident of its lead, and is one step of it by its
 * type and title (`stepsPer` lists the steps every incident must have). Several leads of one incident
 * (resends of its creation) are one: the activity's step does not depend on which lead took it.
 */
export function countActivities(
  all: readonly SandboxRecord[],
  incidents: readonly string[],
  stepsPer: readonly string[],
  incidentOf: (record: Record<string, unknown>) => string | undefined,
): KeyedCount {
  const incidentOfLead = new Map<string, string | undefined>()
  for (const e of all) if (e.kind === 'lead') incidentOfLead.set(String(e.record['lead_id']), incidentOf(e.record))
  const stepOf = (record: Record<string, unknown>): string | undefined => {
    const incident = incidentOfLead.get(String(record['lead_id']))
    return incident === undefined
      ? undefined
      : `${incident} ${String(record['activity_type'])}: ${String(record['title'])}`
  }
  return countKeyed(
    all.filter((e) => e.kind === 'activity').map((e) => ({ step: stepOf(e.record), key: e.record['idempotency_key'] })),
    incidents.flatMap((incident) => stepsPer.map((step) => `${incident} ${step}`)),
  )
}

/** What a crash drill found, for its row's notes: resends and re-creations of each kind, what is missing. */
export function crashNotes(pages: KeyedCount, leads: KeyedCount, activities: KeyedCount): string {
  return (
    `duplicates: ${pages.resends} resends (same key), ${pages.repeats} re-pages (new key)` +
    `; leads: missing ${leads.lost}, ${leads.resends} resends, ${leads.repeats} re-created` +
    `; activities (${activities.expected}): missing ${activities.lost}, ${activities.resends} resends, ${activities.repeats} re-created, ${activities.unexpected} unexpected` +
    (pages.repeated.length > 0 ? `; re-paged ${pages.repeated.join(', ')}` : '') +
    (pages.missing.length > 0 ? `; never paged ${pages.missing.join(', ')}` : '') +
    (leads.repeated.length > 0 ? `; leads re-created ${leads.repeated.join(', ')}` : '') +
    (leads.missing.length > 0 ? `; no lead ${leads.missing.join(', ')}` : '') +
    (activities.repeated.length > 0 ? `; activities re-created ${activities.repeated.join(', ')}` : '') +
    (activities.missing.length > 0 ? `; activities missing ${activities.missing.join(', ')}` : '')
  )
}

/**
 * The promises of a crash drill: nothing lost, nothing done twice under a new key, every record
 * keyed; resends (same key) bounded by `maxResends` for pages and by `maxCrmResends` for leads and activities.
 */
export function expectCrashPromises(
  pages: KeyedCount,
  leads: KeyedCount,
  activities: KeyedCount,
  maxResends: number,
  maxCrmResends: number,
): void {
  expect(pages.unkeyed).toBe(0)
  expect(pages.lost).toBe(0)
  expect(pages.repeats).toBe(0)
  expect(leads.unkeyed).toBe(0)
  expect(leads.lost).toBe(0)
  expect(leads.repeats).toBe(0)
  expect(activities.unkeyed).toBe(0)
  expect(activities.lost).toBe(0)
  expect(activities.repeats).toBe(0)
  expect(activities.unexpected).toBe(0)
  expect(pages.resends).toBeLessThanOrEqual(maxResends)
  expect(leads.resends).toBeLessThanOrEqual(maxCrmResends)
  expect(activities.resends).toBeLessThanOrEqual(maxCrmResends)
}

/** A process the kill loop starts; `current` is what the drill's cleanup must kill if the loop is cut short. */
export interface Killable {
  child: ChildProcess
  exited: Promise<unknown>
}

/**
 * Starts a process `kills` times and SIGKILLs each after a seeded delay in `delayMs`; resolves
 * with the highest peak RSS seen (MB). `track` hears of each process while it lives, for cleanup.
 */
export async function killRepeatedly(
  kills: number,
  delayMs: { min: number; max: number },
  random: () => number,
  start: () => Killable,
  track: (running: Killable | undefined) => void,
): Promise<number> {
  let peakRssMb = 0
  for (let kill = 1; kill <= kills; kill++) {
    const running = start()
    track(running)
    const delay = delayMs.min + Math.floor(random() * (delayMs.max - delayMs.min))
    await new Promise((resolve) => setTimeout(resolve, delay))
    peakRssMb = Math.max(peakRssMb, peakRssOf(running.child.pid ?? 0) ?? 0)
    running.child.kill('SIGKILL')
    await running.exited
    track(undefined)
  }
  return peakRssMb
}
