// The grouping of one source's templates, Drain-like: a fixed-depth tree whose leaves are keyed by
// the token count and the first two tokens (a masked token keys as `<*>`), each leaf a short list of
// kinds. A line joins the kind of its leaf it is most similar to, when at least SIMILARITY of its
// tokens equal the template's at the same place; the template then generalises: each place that
// differs becomes `<*>`. Otherwise the line starts a kind of its own.
//
// Bounded work per line: an exact-form map answers repeats without the tree (the common case), and
// a leaf is scanned for at most LEAF_SCAN kinds, most recently matched first, so a flood of
// distinct lines that share a leaf costs a constant per line, not one per kind.
import { WILDCARD } from './miner-mask'

export const SIMILARITY = 0.5
export const LEAF_SCAN = 48

export interface TreeKind {
  /** The id of the kind's first form; it stays as the template generalises. */
  id: string
  tokens: string[]
  template: string
  /** Ids of the template's later forms (each the hash of that form), for resolve(). */
  aliases: string[]
  leaf: string
  /** Evicted kinds drop out of the exact-form map lazily, when next looked up. */
  alive: boolean
}

export interface Placement {
  kind: TreeKind
  created: boolean
  /** The template changed (a place became `<*>`). */
  generalised: boolean
}

export function leafKey(tokens: readonly string[]): string {
  const first = tokens[0] ?? ''
  const second = tokens[1] ?? ''
  return `${tokens.length}\u0000${first}\u0000${second}`
}

/** Share of the line's tokens equal to the template's at the same place; `<*>` matches anything. */
function similarity(template: readonly string[], tokens: readonly string[]): number {
  let same = 0
  for (let i = 0; i < tokens.length; i++) {
    const t = template[i]
    if (t === tokens[i] || t === WILDCARD) same++
  }
  return same / tokens.length
}

export class KindTree {
  private readonly leaves = new Map<string, TreeKind[]>()
  private readonly exact = new Map<string, TreeKind>()

  constructor(
    private readonly exactMax: number,
    private readonly newId: (template: string) => string,
  ) {}

  place(tokens: string[]): Placement {
    const form = tokens.join(' ')
    const known = this.exact.get(form)
    if (known !== undefined) {
      if (known.alive) return { kind: known, created: false, generalised: false }
      this.exact.delete(form)
    }
    const leaf = leafKey(tokens)
    const kinds = this.leaves.get(leaf)
    const best = kinds === undefined ? undefined : bestOf(kinds, tokens)
    let placement: Placement
    if (best === undefined) {
      const kind: TreeKind = { id: this.newId(form), tokens, template: form, aliases: [], leaf, alive: true }
      this.add(kind)
      placement = { kind, created: true, generalised: false }
    } else {
      if (kinds !== undefined && kinds[0] !== best) moveToFront(kinds, best)
      placement = { kind: best, created: false, generalised: generalise(best, tokens) }
      if (placement.generalised) best.aliases.push(this.newId(best.template))
    }
    this.remember(form, placement.kind)
    return placement
  }

  /** A kind a restart or a fleet knows, with its id (seed). */
  add(kind: TreeKind): void {
    const kinds = this.leaves.get(kind.leaf)
    if (kinds === undefined) this.leaves.set(kind.leaf, [kind])
    else kinds.unshift(kind)
    this.remember(kind.template, kind)
  }

  /** A kind as a restart or a fleet knows it: its id and aliases as they were. */
  seeded(id: string, template: string, aliases: readonly string[]): TreeKind {
    const tokens = template.split(' ')
    const kind: TreeKind = { id, tokens, template, aliases: [...aliases], leaf: leafKey(tokens), alive: true }
    this.add(kind)
    return kind
  }

  remove(kind: TreeKind): void {
    kind.alive = false
    const kinds = this.leaves.get(kind.leaf)
    if (kinds === undefined) return
    const at = kinds.indexOf(kind)
    if (at !== -1) kinds.splice(at, 1)
    if (kinds.length === 0) this.leaves.delete(kind.leaf)
  }

  private remember(form: string, kind: TreeKind): void {
    // Forms of evicted kinds pile up here until looked up: a clear now and then bounds them.
    if (this.exact.size >= this.exactMax) this.exact.clear()
    this.exact.set(form, kind)
  }
}

function bestOf(kinds: readonly TreeKind[], tokens: readonly string[]): TreeKind | undefined {
  let best: TreeKind | undefined
  let bestScore = SIMILARITY
  const scan = Math.min(kinds.length, LEAF_SCAN)
  for (let k = 0; k < scan; k++) {
    const kind = kinds[k] as TreeKind
    const score = similarity(kind.tokens, tokens)
    if (score > bestScore || (score === bestScore && best === undefined)) {
      best = kind
      bestScore = score
    }
  }
  return best
}

function moveToFront(kinds: TreeKind[], kind: TreeKind): void {
  const at = kinds.indexOf(kind)
  if (at <= 0) return
  kinds.splice(at, 1)
  kinds.unshift(kind)
}

/** Places where the line differs become `<*>`; true when the template changed. */
function generalise(kind: TreeKind, tokens: readonly string[]): boolean {
  let changed = false
  for (let i = 0; i < kind.tokens.length; i++) {
    if (kind.tokens[i] !== WILDCARD && kind.tokens[i] !== tokens[i]) {
      kind.tokens[i] = WILDCARD
      changed = true
    }
  }
  if (changed) kind.template = kind.tokens.join(' ')
  return changed
}
