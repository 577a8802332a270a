// The grouping of one source's templates, Drain-like: a fixed-depth tree whose leaves are keyed by
// the token count and the first two tokens (a masked token keys as `<*>`), each leaf a short list of
// kinds. Rules, for a line whose masked form is not known yet:
//  1. It joins the kind of its leaf whose template it fits (equal, or `<*>`, at every place).
//  2. Else it is compared with the leaf's kinds: the best is the one with the largest share of
//     places equal or `<*>`, at least SIMILARITY.
//  3. The places where the line differs from the best are a variable only when the leaf shows at least
//     VARIANTS different values there (the best's, the line's and those of sibling kinds that agree
//     with the line everywhere else): two values are more often two messages (`Begin`/`End`,
//     `bytes`/`values`) than one variable. Then the best generalises (those places become `<*>`) and
//     absorbs the siblings: their ids become its aliases.
//  4. Otherwise the line starts a kind of its own.
// The oldest kind of a merge survives, so a kind keeps the id it was first known by.
//
// Bounded work per line: an exact-form map answers repeats without the tree (the common case), and
// a leaf is scanned for at most LEAF_SCAN kinds, most recently matched first, so a flood of
// distinct lines that share a leaf costs a constant per line, not one per kind.
import { FORM_SEP, formTokens, maskedForm, templateOf } from './miner-form'
import { WILDCARD } from './miner-mask'
import type { KindRef } from './types'

export const SIMILARITY = 0.5
export const VARIANTS = 3
export const LEAF_SCAN = 48

export interface TreeKind {
  /** The id of the kind's first form; it stays as the template generalises. */
  id: string
  tokens: string[]
  template: string
  /** Ids of the template's later forms and of the kinds it absorbed, for resolve(). */
  aliases: string[]
  leaf: string
  /** Creation order: the oldest kind of a merge survives. */
  born: number
  /** Evicted kinds drop out of the exact-form map lazily, when next looked up. */
  alive: boolean
  /** The kind this one was absorbed into. */
  into?: TreeKind | undefined
  /** The bound's order of last seen (recency-list.ts). */
  listed?: boolean
  older?: TreeKind | undefined
  newer?: TreeKind | undefined
  /** What the miner answers for a line of this kind; undefined again when the template or aliases change. */
  ref?: KindRef | undefined
}

export interface Placement {
  kind: TreeKind
  created: boolean
  /** The template changed (a place became `<*>`). */
  generalised: boolean
  /** Kinds merged into `kind` by this line (no longer kinds of their own). */
  absorbed: TreeKind[]
}

export function leafKey(tokens: readonly string[]): string {
  return `${tokens.length}\u0000${tokens[0] ?? ''}\u0000${tokens[1] ?? ''}`
}

/** Share of the line's tokens that fit the template's at the same place (equal, `<*>`, or widened). */
function similarity(template: readonly string[], tokens: readonly string[]): number {
  let same = 0
  for (let i = 0; i < tokens.length; i++) {
    const t = template[i] as string
    const token = tokens[i] as string
    if (t === token || t === WILDCARD || widened(t, token) !== undefined) same++
  }
  return same / tokens.length
}

/** Does `pattern` (with `<*>` for any run of characters) match `text`? */
function globMatches(pattern: string, text: string): boolean {
  const pieces = pattern.split(WILDCARD)
  const head = pieces[0] as string
  const tail = pieces[pieces.length - 1] as string
  if (!text.startsWith(head) || text.length < head.length + tail.length || !text.endsWith(tail)) return false
  let at = head.length
  for (let k = 1; k < pieces.length - 1; k++) {
    const found = text.indexOf(pieces[k] as string, at)
    if (found === -1 || found > text.length - tail.length) return false
    at = found + (pieces[k] as string).length
  }
  return true
}

/**
 * Rule 3's exception: two tokens at one place whose difference the masking already called a variable
 * (one is `<*>`, or one's `<*>` covers the other, or both are `name=` with a masked value in one)
 * are one variable place; the token it widens to, or undefined.
 */
export function widened(a: string, b: string): string | undefined {
  if (a === b) return a
  if (a === WILDCARD || b === WILDCARD) return WILDCARD
  const aMasked = a.includes(WILDCARD)
  const bMasked = b.includes(WILDCARD)
  if (!aMasked && !bMasked) return undefined
  if (aMasked && globMatches(a, b)) return a
  if (bMasked && globMatches(b, a)) return b
  const key = a.indexOf('=')
  if (key > 0 && b.length > key && b.charCodeAt(key) === 61 && a.startsWith(b.slice(0, key))) {
    return `${a.slice(0, key + 1)}${WILDCARD}`
  }
  return undefined
}

/** The kind a form was put in, following merges; undefined when it was evicted. */
function current(kind: TreeKind): TreeKind | undefined {
  let at: TreeKind = kind
  while (at.into !== undefined) at = at.into
  return at.alive ? at : undefined
}

export class KindTree {
  private readonly leaves = new Map<string, TreeKind[]>()
  private readonly exact = new Map<string, TreeKind>()
  private births = 0

  constructor(
    private readonly exactMax: number,
    private readonly newId: (template: string) => string,
  ) {}

  /** The kind of a form met before (a repeat: the common case), without the tree; undefined otherwise. */
  known(form: string): TreeKind | undefined {
    const known = this.exact.get(form)
    if (known === undefined) return undefined
    const kind = current(known)
    if (kind === undefined) this.exact.delete(form)
    return kind
  }

  place(form: string): Placement {
    const kind = this.known(form)
    if (kind !== undefined) return join(kind)
    const tokens = formTokens(form)
    const leaf = leafKey(tokens)
    const kinds = this.leaves.get(leaf) ?? []
    const scan = kinds.length > LEAF_SCAN ? kinds.slice(0, LEAF_SCAN) : [...kinds]
    // As Drain descends its tree: a kind whose second token became `<*>` is in the leaf of `<*>`.
    if (tokens[1] !== undefined && tokens[1] !== WILDCARD) {
      const wider = this.leaves.get(`${tokens.length}\u0000${tokens[0] ?? ''}\u0000${WILDCARD}`)
      if (wider !== undefined) scan.push(...wider.slice(0, LEAF_SCAN))
    }
    const best = bestOf(scan, tokens)
    const placement =
      best === undefined ? undefined : fitsAll(best.tokens, tokens) ? join(best) : this.merge(scan, best, tokens)
    const placed = placement ?? this.create(tokens, form, leaf)
    if (!placed.created) this.refile(placed.kind)
    this.remember(form, placed.kind)
    return placed
  }

  /** A kind a restart or a fleet knows, with its id and aliases as they were (seed). */
  seeded(id: string, template: string, aliases: readonly string[]): TreeKind {
    const tokens = formTokens(maskedForm(template, false))
    const kind = this.kind(id, tokens, templateOf(tokens), leafKey(tokens))
    kind.aliases.push(...aliases)
    this.add(kind)
    return kind
  }

  /** The bound's eviction: out of its leaf and, when it is there, its own form out of the exact map. */
  evict(kind: TreeKind): void {
    this.remove(kind)
    const form = kind.tokens.join(FORM_SEP)
    if (this.exact.get(form) === kind) this.exact.delete(form)
  }

  /** What the tree holds (a test of the bound counts these). */
  sizes(): { leaves: number; leafKinds: number; exactForms: number } {
    let leafKinds = 0
    for (const kinds of this.leaves.values()) leafKinds += kinds.length
    return { leaves: this.leaves.size, leafKinds, exactForms: this.exact.size }
  }

  remove(kind: TreeKind): void {
    kind.alive = false
    const kinds = this.leaves.get(kind.leaf)
    if (kinds === undefined) return
    const at = kinds.indexOf(kind)
    if (at !== -1) kinds.splice(at, 1)
    if (kinds.length === 0) this.leaves.delete(kind.leaf)
  }

  private kind(id: string, tokens: string[], template: string, leaf: string): TreeKind {
    return { id, tokens, template, aliases: [], leaf, born: this.births++, alive: true }
  }

  private create(tokens: string[], form: string, leaf: string): Placement {
    const template = templateOf(tokens)
    const kind = this.kind(this.newId(template), tokens, template, leaf)
    this.add(kind)
    return { kind, created: true, generalised: false, absorbed: [] }
  }

  private add(kind: TreeKind): void {
    const kinds = this.leaves.get(kind.leaf)
    if (kinds === undefined) this.leaves.set(kind.leaf, [kind])
    else kinds.unshift(kind)
    this.remember(kind.tokens.join(FORM_SEP), kind)
  }

  /** Rule 3: the line, the best and the siblings merged when they show VARIANTS values; else undefined. */
  private merge(scan: readonly TreeKind[], best: TreeKind, tokens: readonly string[]): Placement | undefined {
    const differ: number[] = []
    for (let i = 0; i < tokens.length; i++)
      if (widened(best.tokens[i] as string, tokens[i] as string) === undefined) differ.push(i)
    const siblings =
      differ.length === 0 ? [] : scan.filter((kind) => kind !== best && agreesOutside(kind.tokens, tokens, differ))
    if (differ.length > 0 && siblings.length + 2 < VARIANTS) return undefined
    const group = [best, ...siblings]
    const survivor = group.reduce((a, b) => (b.born < a.born ? b : a))
    let changed = generaliseBy(survivor, tokens)
    for (const kind of group) changed = generaliseBy(survivor, kind.tokens) || changed
    if (!changed) return join(survivor)
    const absorbed = group.filter((kind) => kind !== survivor)
    for (const kind of absorbed) {
      this.remove(kind)
      kind.into = survivor
      survivor.aliases.push(kind.id, ...kind.aliases)
    }
    survivor.template = templateOf(survivor.tokens)
    survivor.aliases.push(this.newId(survivor.template))
    survivor.ref = undefined
    return { kind: survivor, created: false, generalised: true, absorbed }
  }

  /** The kind first in its leaf (most recently matched), in the leaf its template keys now. */
  private refile(kind: TreeKind): void {
    const key = leafKey(kind.tokens)
    if (key !== kind.leaf) {
      this.remove(kind)
      kind.alive = true
      kind.leaf = key
      this.add(kind)
      return
    }
    const kinds = this.leaves.get(key)
    if (kinds !== undefined && kinds[0] !== kind) moveToFront(kinds, kind)
  }

  private remember(form: string, kind: TreeKind): void {
    // Forms of evicted kinds pile up here until looked up: a clear now and then bounds them.
    if (this.exact.size >= this.exactMax) this.exact.clear()
    this.exact.set(form, kind)
  }
}

/** Rule 1: the line fits the template as it is. */
function fitsAll(template: readonly string[], tokens: readonly string[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = template[i]
    if (t !== tokens[i] && t !== WILDCARD) return false
  }
  return true
}

function join(kind: TreeKind): Placement {
  return { kind, created: false, generalised: false, absorbed: [] }
}

function bestOf(kinds: readonly TreeKind[], tokens: readonly string[]): TreeKind | undefined {
  let best: TreeKind | undefined
  let bestScore = SIMILARITY
  for (const kind of kinds) {
    const score = similarity(kind.tokens, tokens)
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = kind
      bestScore = score
    }
  }
  return best
}

/** The kind's template equals the line (or is `<*>`) at every place but `differ`, and differs at those. */
function agreesOutside(template: readonly string[], tokens: readonly string[], differ: readonly number[]): boolean {
  let d = 0
  for (let i = 0; i < tokens.length; i++) {
    const t = template[i] as string
    if (i === differ[d]) {
      d++
      if (t === tokens[i]) return false
    } else if (widened(t, tokens[i] as string) === undefined) return false
  }
  return true
}

function moveToFront(kinds: TreeKind[], kind: TreeKind): void {
  const at = kinds.indexOf(kind)
  if (at <= 0) return
  kinds.splice(at, 1)
  kinds.unshift(kind)
}

/** Places where `tokens` differs from the kind's template widen, or become `<*>`; true if any did. */
function generaliseBy(kind: TreeKind, tokens: readonly string[]): boolean {
  let changed = false
  for (let i = 0; i < kind.tokens.length; i++) {
    const t = kind.tokens[i] as string
    if (t === WILDCARD || t === tokens[i]) continue
    const wider = widened(t, tokens[i] as string) ?? WILDCARD
    if (wider !== t) {
      kind.tokens[i] = wider
      changed = true
    }
  }
  return changed
}
