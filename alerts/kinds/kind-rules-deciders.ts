// One kind rule's state and decision per line: the pure decisions (new-kind.ts, regressed.ts, spike.ts,
// ratio.ts) fed with what the rule keeps (pending new kinds, when it paged a kind, windowed counts).
// Every map is bounded (least recently touched dropped).
import { fingerprint } from '../fingerprint'
import type { AlertLine } from '../line'
import type { Rule } from '../rule'
import type { KindRuleConfig } from './kind-rules-config'
import { createWindowCounts } from './kind-rules-window'
import type { KindSeen, KindTable } from './kind-table'
import type { KindView } from './kind-vars'
import { newKindStateOf, newKindVerdict, passesOnEntry, pendingTimes } from './new-kind'
import { ratioExceeded } from './ratio'
import { regressedVerdict } from './regressed'
import { isSpike } from './spike'

export interface KindContext {
  seen: KindSeen
  line: AlertLine
  now: number
  /** The line's source's last deploy (regressed rules with `deploys`). */
  deployAt: number | undefined
}

export interface KindVerdict {
  take: boolean
  /** What the rule adds to the kind's view (`window_count`, `share`). */
  extra?: Partial<KindView> | undefined
}

export interface KindDecider {
  /** `open`: the rule's incident for this line is open (kind-rules.ts, rule 2). */
  decide(context: KindContext, open: boolean): KindVerdict
  countLines?(source: string | undefined, n: number, now: number): void
}

// Verdicts without extras, shared: most lines of a known kind pass, and nothing is made for them.
const TAKE: KindVerdict = Object.freeze({ take: true })
const PASS: KindVerdict = Object.freeze({ take: false })

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  if (map.size <= max) return
  const oldest = map.keys().next().value
  if (oldest !== undefined) map.delete(oldest)
}

// What it counts toward min_count and its page are the table's (kept across restarts), not the rule's.
function newKind(rule: Rule, config: Extract<KindRuleConfig, { type: 'new' }>, table: KindTable): KindDecider {
  return {
    decide({ seen, now }, open) {
      if (open) return TAKE
      const { entry } = seen
      // Most lines: nothing is made for a kind learned, paged or known with nothing pending.
      if (passesOnEntry(entry, seen.isNew)) return PASS
      const { learned, paged, pending } = newKindStateOf(entry, rule.name)
      const { minCount, withinMs } = config
      const input = { learned, paged, pending, isNew: seen.isNew, now, minCount, withinMs }
      const verdict = newKindVerdict(input)
      if (verdict === 'wait') table.waiting(entry.id, rule.name, pendingTimes(input))
      if (verdict === 'page') table.paged(entry.id)
      return verdict === 'page' ? TAKE : PASS
    },
  }
}

function regressed(config: Extract<KindRuleConfig, { type: 'regressed' }>, maxKeys: number): KindDecider {
  const pagedAt = new Map<string, number>()
  return {
    decide({ seen, now, deployAt }, open) {
      if (open) return TAKE
      const { entry } = seen
      const verdict = regressedVerdict({
        ...{ isNew: seen.isNew, previousSeen: seen.previousSeen, lastResolved: entry.lastResolved },
        ...{ pagedAt: pagedAt.get(entry.id), deployAt, watchesDeploys: config.deploys !== undefined },
        ...{ now, quietMs: config.quietMs },
      })
      if (verdict.page) remember(pagedAt, entry.id, now, maxKeys)
      return verdict.page ? TAKE : PASS
    },
  }
}

function spike(rule: Rule, config: Extract<KindRuleConfig, { type: 'spike' }>, maxKeys: number): KindDecider {
  const { windowMs, baselineMs } = config
  const counts = createWindowCounts(Math.max(1000, Math.floor(windowMs / 4)), windowMs + baselineMs, maxKeys)
  let since: number | undefined
  return {
    decide({ seen, line, now }, open) {
      since ??= now
      const key = rule.groupBy === undefined ? seen.entry.id : fingerprint(rule, line)
      counts.add(key, now, 1)
      const start = now - windowMs
      const current = counts.sum(key, start, Infinity)
      const baseline = counts.sum(key, start - baselineMs, start)
      const extra = { window_count: current }
      if (open) return { take: true, extra }
      return { take: isSpike({ ...config, current, baseline, watchedMs: now - since }), extra }
    },
  }
}

const percent = (share: number): string => `${(Math.round(share * 1000) / 10).toString()}%`

function ratio(config: Extract<KindRuleConfig, { type: 'ratio' }>, maxKeys: number): KindDecider {
  const bucketMs = Math.max(1000, Math.floor(config.withinMs / 10))
  const matching = createWindowCounts(bucketMs, config.withinMs, maxKeys)
  const total = createWindowCounts(bucketMs, config.withinMs, maxKeys)
  return {
    decide({ line, now }, open) {
      const source = line.source ?? ''
      matching.add(source, now, 1)
      const from = now - config.withinMs
      const counts = { matching: matching.sum(source, from, Infinity), total: total.sum(source, from, Infinity) }
      const share = counts.total === 0 ? undefined : percent(counts.matching / counts.total)
      const extra = { window_count: counts.matching, share }
      if (open) return { take: true, extra }
      return { take: ratioExceeded({ ...counts, above: config.above, minLines: config.minLines }), extra }
    },
    countLines: (source, n, now) => total.add(source ?? '', now, n),
  }
}

export function createKindDeciders(rule: Rule, config: KindRuleConfig, maxKeys: number, table: KindTable): KindDecider {
  switch (config.type) {
    case 'new':
      return newKind(rule, config, table)
    case 'regressed':
      return regressed(config, maxKeys)
    case 'spike':
      return spike(rule, config, maxKeys)
    case 'ratio':
      return ratio(config, maxKeys)
  }
}
