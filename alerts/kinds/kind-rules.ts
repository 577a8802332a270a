// Rules on kinds in the engine: which kind rule takes a line. A line some kind rule's selection (level,
// source, match, message) takes is mined once (the miner), counted once in the kind table, and then
// each kind rule decides (new-kind.ts, regressed.ts, spike.ts, ratio.ts). Rules without kinds never
// reach here: an engine without kind rules has no KindRules and mines nothing. The rules, in order:
// 1. a rule whose selection does not take the line does not take it (and counts nothing);
// 2. a rule whose incident for this line (its key: the rule and the kind; ratio: the rule and the
//    source; spike with group_by: the group) is open takes it, so the incident counts it and stays open;
// 3. otherwise the rule takes the line only when its decision pages; a line no kind rule takes goes on
//    to the next rule in order, as any unselected line does.
// Deploy lines are watched on every line the engine sees (a regressed rule's `deploys`).
import { fingerprint } from '../fingerprint'
import type { AlertLine } from '../line'
import { compileFieldMatch, matchField, type FieldMatcher } from '../matcher'
import type { Rule } from '../rule'
import { ruleSelects } from '../select'
import type { KindRuleConfig } from './kind-rules-config'
import { createKindDeciders, type KindContext, type KindDecider } from './kind-rules-deciders'
import type { KindSeen, KindTable } from './kind-table'
import { kindIncidentKey, kindView, withKind } from './kind-vars'
import type { KindMiner } from './types'

export interface KindRulesOptions {
  miner: KindMiner
  table: KindTable
  /** This agent's host name (kinds' `hosts`, `{{kind.host}}`); default: the line's `hostname`, else `local`. */
  host?: string | undefined
  /** Kinds (or groups) each rule keeps state for; default 10 000. */
  maxKeys?: number | undefined
  /**
   * With no rule on kinds, the lines any rule selects are mined still (a digest reads the table);
   * without it, no kind rule means nothing is mined.
   */
  mineSelected?: boolean | undefined
}

/** What a kind rule that takes a line makes of it: the incident key and the line with its kind. */
export interface KindTake {
  key: string
  line: AlertLine
}

export interface KindRules {
  readonly table: KindTable
  /**
   * The kind rules that take the line, with their verdicts; undefined when none does (and nothing is mined
   * when no kind rule's selection takes it).
   */
  see(line: AlertLine, now: number, isOpen: (key: string) => boolean): Map<Rule, KindTake> | undefined
  /** `n` lines of `source` were read (every line, not only candidates): ratio rules' denominator. */
  countLines(source: string | undefined, n: number, now: number): void
  /** An incident a kind rule took a line into: the sweep sees it resolve. */
  opened(key: string, kindId: string): void
  /** Marks the kinds whose incidents are no longer open as resolved at `now`. */
  sweep(now: number, isOpen: (key: string) => boolean): void
}

interface Watch {
  rule: Rule
  config: KindRuleConfig
  decider: KindDecider
  keys: IncidentKeys
}

/** A rule's incident keys by kind (or source), made once per kind, not per line; bounded, cleared when full. */
class IncidentKeys {
  private readonly known = new Map<string | undefined, string>()

  constructor(private readonly max: number) {}

  of(watch: Watch, line: AlertLine, kindId: string): string {
    // A spike grouped by fields has a key per group, not per kind.
    if (watch.config.type === 'spike' && watch.rule.groupBy !== undefined) return keyOf(watch, line, kindId)
    const by = watch.config.type === 'ratio' ? line.source : kindId
    let key = this.known.get(by)
    if (key === undefined) {
      if (this.known.size >= this.max) this.known.clear()
      key = keyOf(watch, line, kindId)
      this.known.set(by, key)
    }
    return key
  }
}

interface DeployWatcher {
  sources: ReadonlySet<string> | undefined
  match: readonly FieldMatcher[]
}

function hostOf(line: AlertLine, host: string | undefined): string {
  if (host !== undefined) return host
  const named = line.record.hostname ?? line.record.host
  return typeof named === 'string' && named !== '' ? named : 'local'
}

function deployWatchers(watches: readonly Watch[]): DeployWatcher[] {
  const out: DeployWatcher[] = []
  for (const { config } of watches) {
    if (config.type !== 'regressed' || config.deploys === undefined) continue
    const { sources, match } = config.deploys
    out.push({ sources: sources === undefined ? undefined : new Set(sources), match: match.map(compileFieldMatch) })
  }
  return out
}

function isDeploy(watcher: DeployWatcher, line: AlertLine): boolean {
  if (watcher.sources !== undefined && (line.source === undefined || !watcher.sources.has(line.source))) return false
  for (const matcher of watcher.match) if (!matchField(matcher, line.record)) return false
  return true
}

/** The key a rule's incident for this line has (rule 2). */
function keyOf(watch: Watch, line: AlertLine, kindId: string): string {
  const { rule, config } = watch
  if (config.type === 'ratio') return kindIncidentKey(rule.name, 'source', line.source)
  if (config.type === 'spike' && rule.groupBy !== undefined) return fingerprint(rule, line)
  return kindIncidentKey(rule.name, 'kind', kindId)
}

/** undefined when no rule is on kinds. */
export function createKindRules(rules: readonly Rule[], options: KindRulesOptions): KindRules | undefined {
  const maxKeys = options.maxKeys ?? 10_000
  const watches: Watch[] = []
  for (const rule of rules) {
    if (rule.kinds === undefined) continue
    const decider = createKindDeciders(rule, rule.kinds, maxKeys, options.table)
    watches.push({ rule, config: rule.kinds, decider, keys: new IncidentKeys(maxKeys) })
  }
  const mineSelected = watches.length === 0 && options.mineSelected === true
  if (watches.length === 0 && !mineSelected) return undefined
  const deploys = deployWatchers(watches)
  const deployAt = new Map<string | undefined, number>()
  const openKinds = new Map<string, string>()
  const { miner, table } = options

  // One context, refilled for each line mined: a decider reads it within its call and keeps none of it.
  let context: KindContext | undefined

  function contextOf(seen: KindSeen, line: AlertLine, now: number): KindContext {
    const at = deploys.length === 0 ? undefined : deployAt.get(line.source)
    if (context === undefined) context = { seen, line, now, deployAt: at }
    else {
      context.seen = seen
      context.line = line
      context.now = now
      context.deployAt = at
    }
    return context
  }

  function see(line: AlertLine, now: number, isOpen: (key: string) => boolean) {
    if (deploys.length > 0) for (const watcher of deploys) if (isDeploy(watcher, line)) deployAt.set(line.source, now)
    if (mineSelected) {
      if (rules.some((rule) => rule.absent === undefined && ruleSelects(rule, line)))
        table.observe(miner.mine(line), line, now, hostOf(line, options.host))
      return undefined
    }
    // No array, key or view is made for a line no rule takes (most lines of a known kind).
    let first = 0
    while (first < watches.length && !ruleSelects((watches[first] as Watch).rule, line)) first++
    if (first === watches.length) return undefined
    const host = hostOf(line, options.host)
    const seen = table.observe(miner.mine(line), line, now, host)
    const context = contextOf(seen, line, now)
    let takes: Map<Rule, KindTake> | undefined
    for (let i = first; i < watches.length; i++) {
      const watch = watches[i] as Watch
      if (i !== first && !ruleSelects(watch.rule, line)) continue
      const key = watch.keys.of(watch, line, seen.entry.id)
      const verdict = watch.decider.decide(context, isOpen(key))
      if (!verdict.take) continue
      const view = { ...kindView(seen.entry, host, now), ...verdict.extra }
      takes ??= new Map()
      takes.set(watch.rule, { key, line: withKind(line, view) })
    }
    return takes
  }

  return {
    table,
    see,
    countLines(source, n, now) {
      for (const { decider } of watches) decider.countLines?.(source, n, now)
    },
    opened(key, kindId) {
      openKinds.set(key, kindId)
      table.opened(kindId, key)
    },
    sweep(now, isOpen) {
      for (const [key, kindId] of openKinds) {
        if (isOpen(key)) continue
        openKinds.delete(key)
        table.resolved(kindId, now)
      }
    },
  }
}
