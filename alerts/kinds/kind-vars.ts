// What templates and matchers see of a kind: a rule on kinds puts a view of the kind in its line's
// record under `kind` (so `{{kind.template}}`, `{{kind.count}}`, `{{kind.first_seen}}`, `{{kind.hosts}}`
// and `{{kind.id}}` render, and a silence `kind=<id>` matches: labels.ts reads the id), the incident
// keys of rules on kinds, and their default titles.
import { hash53 } from '../hash53'
import { levelLabel } from '../levels'
import type { AlertLine } from '../line'
import type { KindRuleConfig } from './kind-rules-config'
import type { KindEntry } from './types'

/** The record field a kind's view goes in. */
export const KIND_FIELD = 'kind'

export interface KindView {
  id: string
  template: string
  level: string
  /** ISO time. */
  first_seen: string
  count: number
  /** Hosts that saw it, most recent first, comma-separated. */
  hosts: string
  /** The host of this line. */
  host: string
  /** Since first seen, in words: `2 min`. */
  age: string
  source: string | undefined
  /** Spike: the lines in the window; ratio: the matching lines. */
  window_count?: number | undefined
  /** Ratio: the matching share of the source's lines, `7.5%`. */
  share?: string | undefined
}

/** A duration in the largest unit that fits, rounded down: `45 s`, `2 min`, `3 h`, `2 d`. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min`
  if (s < 86_400) return `${Math.floor(s / 3600)} h`
  return `${Math.floor(s / 86_400)} d`
}

export function kindView(entry: KindEntry, host: string, now: number): KindView {
  return {
    id: entry.id,
    template: entry.template,
    level: levelLabel(entry.level),
    first_seen: new Date(entry.firstSeen).toISOString(),
    count: entry.count,
    hosts: entry.hosts.join(', '),
    host,
    age: ageText(now - entry.firstSeen),
    source: entry.source,
  }
}

/** The line with the kind's view in its record (a copy: the caller's line is not changed). */
export function withKind(line: AlertLine, view: KindView): AlertLine {
  return { ...line, record: { ...line.record, [KIND_FIELD]: view } }
}

/** The kind id a record carries (a rule on kinds put it there); undefined otherwise. */
export function kindIdOf(record: Readonly<Record<string, unknown>>): string | undefined {
  const view = record[KIND_FIELD]
  if (typeof view !== 'object' || view === null) return undefined
  const id = (view as { id?: unknown }).id
  return typeof id === 'string' ? id : undefined
}

/**
 * An incident key of a rule on kinds: the rule and what it groups by (a kind id, a source), written
 * `<rule>:<hash>` as every incident key is (fingerprint.ts): the console, digest and fleet read the rule from it.
 */
export function kindIncidentKey(ruleName: string, by: 'kind' | 'source', value: string | undefined): string {
  return `${ruleName}:${hash53(`${ruleName}\u0000${by}\u0000${value ?? ''}`)}`
}

const TITLES: Readonly<Record<KindRuleConfig['type'], string>> = {
  new: 'NEW {{kind.level}} kind on {{kind.host}} ({{kind.count}}x in {{kind.age}}): {{kind.template}}',
  regressed: 'REGRESSED {{kind.level}} kind on {{kind.host}} (first seen {{kind.first_seen}}): {{kind.template}}',
  spike: 'SPIKE of a {{kind.level}} kind on {{kind.host}} ({{kind.window_count}}x): {{kind.template}}',
  ratio: '{{kind.share}} of the lines of {{kind.source}} match {{rule}} on {{kind.host}}: {{kind.template}}',
}

/** The title a rule on kinds has when it writes none. */
export const defaultKindTitle = (config: KindRuleConfig): string => TITLES[config.type]
