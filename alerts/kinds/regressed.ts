// `kind: regressed`: whether a line of a known kind pages it as back. Pure; kind-rules.ts keeps when the
// rule last paged each kind and each source's last deploy. The rules, in order:
// 1. a kind's first line is never a regression (it is new: `kind: new`'s);
// 2. back after its incident resolved: the kind's last resolve is later than this rule's last page of
//    it (pages once per resolve);
// 3. ... with `deploys`, only once a deploy of its source came after that resolve (as Sentry's "resolved
//    in the next release"): lines of a resolved kind before the next deploy are the old version's,
//    and wait; with no deploy yet, rule 4 may still page it;
// 4. back after `quiet`: its previous line is at least `quietMs` old;
// 5. anything else is not a regression.

export type RegressedVerdict = { page: true; why: 'resolved' | 'quiet' } | { page: false }

export interface RegressedInput {
  isNew: boolean
  /** The kind's last line before this one. */
  previousSeen: number | undefined
  lastResolved: number | undefined
  /** When this rule last paged the kind. */
  pagedAt: number | undefined
  /** The source's last deploy; undefined: none seen. */
  deployAt: number | undefined
  watchesDeploys: boolean
  now: number
  quietMs: number
}

function backAfterResolve(input: RegressedInput): boolean {
  const { lastResolved, pagedAt, deployAt } = input
  if (lastResolved === undefined || (pagedAt !== undefined && pagedAt >= lastResolved)) return false
  if (!input.watchesDeploys) return true
  return deployAt !== undefined && deployAt >= lastResolved && deployAt <= input.now
}

export function regressedVerdict(input: RegressedInput): RegressedVerdict {
  if (input.isNew || input.previousSeen === undefined) return { page: false }
  if (backAfterResolve(input)) return { page: true, why: 'resolved' }
  if (input.now - input.previousSeen >= input.quietMs) return { page: true, why: 'quiet' }
  return { page: false }
}
