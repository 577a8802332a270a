// What a file that appeared while the tailer runs is, once its probation is over (its head is
// complete, or it stayed the same size for a tick, or its path went away). Pure: the tailer knows
// the heads, this decides. In order:
// 1. it starts like a truncated generation still waiting for its copy (copy-and-truncate, the copy
//    found after the truncation): it is that copy; it is read from where the truncated generation
//    stood, takes over its commits, and the file's new generation is read after it;
// 2. its full head equals that of a file being read: a copy of it (made before the truncation is
//    noticed, or a backup), parked: not read unless the original turns out truncated, or it turns
//    out to differ from it further on (parked-copy.ts). A short head never parks a file: a new file
//    wrongly parked would never be read;
// 3. it starts like a file being read whose head was last seen short, and this is its first try:
//    that file may have been truncated since and this be its copy: read those files first
//    (rule 5 of turn-check.ts notices the truncation), then decide again;
// 4. otherwise: a new file, read from 0.

import { HEAD_BYTES, sameFullHead, startsLike } from './file-identity'
import type { FileGenerationPhase } from './file-generation'

export interface ClassifiedFile {
  readonly phase: FileGenerationPhase
  readonly head: Buffer
}

export type NewFileClass<F> =
  | { readonly kind: 'copy-of-truncated'; /** index in `awaiting` */ readonly index: number }
  | { readonly kind: 'parked'; readonly copyOf: F }
  | { readonly kind: 'deferred'; readonly suspects: readonly F[] }
  | { readonly kind: 'new' }

/**
 * `awaiting`: the heads of the generations ended by a truncation that wait for their copy, oldest
 * first; `others`: every other followed file; `deferred`: rule 3 already applied once.
 */
export function classifyNewFile<F extends ClassifiedFile>(
  head: Buffer,
  deferred: boolean,
  awaiting: readonly Buffer[],
  others: Iterable<F>,
): NewFileClass<F> {
  const index = awaiting.findIndex((ended) => startsLike(ended, head))
  if (index !== -1) return { kind: 'copy-of-truncated', index }
  const active = [...others].filter((other) => other.phase === 'active')
  if (head.length === HEAD_BYTES) {
    const original = active.find((other) => sameFullHead(other.head, head))
    if (original !== undefined) return { kind: 'parked', copyOf: original }
  }
  if (!deferred) {
    const suspects = active.filter((other) => other.head.length < HEAD_BYTES && startsLike(other.head, head))
    if (suspects.length > 0) return { kind: 'deferred', suspects }
  }
  return { kind: 'new' }
}
