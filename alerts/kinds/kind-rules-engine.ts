// What the engine needs of rules on kinds, kept out of engine.ts: its `kinds` option, the KindRules of
// its rules (none without a kind rule, so such configs never mine), and the choice of a line's rule
// with kinds (the first rule in order that takes it: an ordinary rule by its selection, a kind rule by
// its verdict, kind-rules.ts).
import { fingerprint } from '../fingerprint'
import type { AlertLine } from '../line'
import type { Rule } from '../rule'
import { ruleSelects, selectRule } from '../select'
import { createKindMiner } from './miner'
import { createKindRules, type KindRules, type KindTake } from './kind-rules'
import { createKindTable, type KindTable } from './kind-table'
import { kindIdOf } from './kind-vars'
import type { KindMiner } from './types'

/** The engine's `kinds` option (the agent's `kinds:` section, and what it hands in). */
export interface KindEngineOptions {
  /** Kinds kept per source (`kinds.max`); default 10 000. */
  max?: number | undefined
  /** How long a first start learns (`kinds.learn`), ms; default 1 h. */
  learnMs?: number | undefined
  /** This agent's host name for `{{kind.host}}` and a kind's hosts. */
  host?: string | undefined
  /** Default: createKindMiner({ max }). */
  miner?: KindMiner | undefined
  /** Default: createKindTable({ max, learnMs }); the agent's store restores it. */
  table?: KindTable | undefined
  /** With no rule on kinds: mine the lines any rule selects all the same (the agent's digest reads them). */
  mineSelected?: boolean | undefined
}

export const DEFAULT_KINDS_MAX = 10_000
export const DEFAULT_KINDS_LEARN_MS = 3_600_000

export function kindRulesFor(rules: readonly Rule[], options: KindEngineOptions = {}): KindRules | undefined {
  if (options.mineSelected !== true && !rules.some((rule) => rule.kinds !== undefined)) return undefined
  const max = options.max ?? DEFAULT_KINDS_MAX
  return createKindRules(rules, {
    miner: options.miner ?? createKindMiner({ max }),
    table: options.table ?? createKindTable({ max, learnMs: options.learnMs ?? DEFAULT_KINDS_LEARN_MS }),
    host: options.host,
    maxKeys: max,
    mineSelected: options.mineSelected,
  })
}

export interface RuleChoice {
  rule: Rule
  /** When a kind rule took the line: its key and the line with the kind's view. */
  take?: KindTake | undefined
}

/**
 * The first rule that takes the line. `annotated`: the rule a logx-tail-filter annotation names,
 * taken as it is unless it is a kind rule (those decide here).
 */
export function chooseRule(
  rules: readonly Rule[],
  line: AlertLine,
  takes: ReadonlyMap<Rule, KindTake> | undefined,
  annotated?: Rule,
): RuleChoice | undefined {
  if (annotated !== undefined && annotated.kinds === undefined) return { rule: annotated }
  for (const rule of rules) {
    if (rule.absent !== undefined) continue
    if (rule.kinds === undefined) {
      if (ruleSelects(rule, line)) return { rule }
      continue
    }
    const take = takes?.get(rule)
    if (take !== undefined) return { rule, take }
  }
  return undefined
}

/** A line a rule took, as the engine keeps it (engine.ts's SelectedLine). */
export interface TakenLine {
  rule: Rule
  line: AlertLine
  key: string
}

/** The engine's side of rules on kinds; without a kind rule it chooses as before and mines nothing. */
export interface KindPath {
  readonly table: KindTable | undefined
  /** The rule that takes the line (`annotated`: a logx-tail-filter annotation's); kinds decide with `now`. */
  choose(line: AlertLine, now: number | undefined, annotated: Rule | undefined): RuleChoice | undefined
  /** The line censored, with its key (a kind rule's, else the fingerprint); a kind rule's incident noted. */
  selected(choice: RuleChoice, line: AlertLine, censor: (line: AlertLine) => AlertLine): TakenLine
  countLines(source: string | undefined, n: number, now: number): void
  /** After the incident table's tick: kinds whose incidents ended are resolved; returns `due` as it is. */
  afterTick<T>(now: number, due: T): T
}

export function createKindPath(
  rules: readonly Rule[],
  options: KindEngineOptions | undefined,
  isOpen: (key: string) => boolean,
): KindPath {
  const kinds = kindRulesFor(rules, options)
  return {
    table: kinds?.table,
    choose(line, now, annotated) {
      if (kinds === undefined) {
        const rule = annotated ?? selectRule(rules, line)
        return rule === undefined ? undefined : { rule }
      }
      return chooseRule(rules, line, now === undefined ? undefined : kinds.see(line, now, isOpen), annotated)
    },
    selected({ rule, take }, line, censor) {
      const clean = censor(take?.line ?? line)
      if (take === undefined) return { rule, line: clean, key: fingerprint(rule, clean) }
      const kindId = kindIdOf(take.line.record)
      if (kindId !== undefined) kinds?.opened(take.key, kindId)
      return { rule, line: clean, key: take.key }
    },
    countLines: (source, n, now) => kinds?.countLines(source, n, now),
    afterTick(now, due) {
      kinds?.sweep(now, isOpen)
      return due
    },
  }
}
