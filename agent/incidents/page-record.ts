// Pure decisions about the pages an engine's notices make, against what outlives an engine (the
// incident state): the alert path keeps a fresh engine (after a restart or a reload) from paging
// again what a previous one paged, and records what was paged once the outbox has it.
//
// 1. A `firing` notice of an incident the state says paged within its rule's repeat_interval is
//    dropped: the incident is still paging from before (counted and said once per incident).
// 2. Every other notice is kept, in order.
// 3. Of the kept notices, per incident, the last says what to record: firing, repeat, escalated and
//    unacknowledged (a re-page) record a page at `now`; acknowledged records the changed incident;
//    resolved forgets the incident; digests record nothing.
// 4. A rule's entries in the state matter for as long as it can still act on them: a paged incident
//    until `resolve_after` without lines (forever without it), a pending one for its group_wait plus
//    its threshold window plus a minute of slack.
import type { Delivery } from '../../alerts'
import type { RuleConfig } from '../config/types'
import type { PagedIncident } from './incident-state'

export interface PageFilter {
  kept: Delivery[]
  /** Incidents whose repeated firing was dropped (rule 1), one entry each. */
  suppressed: { key: string; rule: string }[]
}

/** Rules 1 and 2. */
export function dropRepages(
  deliveries: readonly Delivery[],
  paged: (key: string) => PagedIncident | undefined,
  ruleOf: (name: string) => RuleConfig | undefined,
  now: number,
): PageFilter {
  const kept: Delivery[] = []
  const suppressed: PageFilter['suppressed'] = []
  const seen = new Set<string>()
  for (const delivery of deliveries) {
    const { notice } = delivery
    const key = notice.incident.key
    if (notice.kind === 'firing') {
      const before = paged(key)
      const rule = ruleOf(notice.incident.rule)
      if (before !== undefined && rule !== undefined && now < before.notifiedAt + rule.repeatIntervalMs) {
        if (!seen.has(key)) {
          seen.add(key)
          suppressed.push({ key, rule: rule.name })
        }
        continue
      }
    }
    kept.push(delivery)
  }
  return { kept, suppressed }
}

export type PageRecord = { kind: 'paged' | 'changed'; key: string; rule: string } | { kind: 'resolved'; key: string }

function recordOf(notice: Delivery['notice']): PageRecord | undefined {
  const { key, rule } = notice.incident
  switch (notice.kind) {
    case 'firing':
    case 'repeat':
    case 'escalated':
    case 'unacknowledged':
      return { kind: 'paged', key, rule }
    case 'acknowledged':
      return { kind: 'changed', key, rule }
    case 'resolved':
      return { kind: 'resolved', key }
    case 'digest':
    case 'inhibited':
      return undefined
  }
}

/** Rule 3: one record per incident, in the order incidents first appear. */
export function pageRecords(kept: readonly Delivery[]): PageRecord[] {
  const records = new Map<string, PageRecord>()
  for (const { notice } of kept) {
    const record = recordOf(notice)
    if (record === undefined) continue
    // A later notice of the same step decides (acknowledged, then resolved: resolved).
    records.set(notice.incident.key, record)
  }
  return [...records.values()]
}

const PENDING_SLACK_MS = 60_000

/** Rule 4: how long a rule's paged and pending entries matter (0 for a rule no longer configured). */
export function retentionOf(rule: RuleConfig | undefined): { pagedMs: number; pendingMs: number } {
  if (rule === undefined) return { pagedMs: 0, pendingMs: 0 }
  return {
    // An absence incident has no lines: only its key's next line, or a hand, ends it.
    pagedMs: rule.absent !== undefined ? Infinity : (rule.resolveAfterMs ?? Infinity),
    pendingMs: rule.groupWaitMs + (rule.threshold?.withinMs ?? 0) + PENDING_SLACK_MS,
  }
}
