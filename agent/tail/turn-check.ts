// Whether a file's turn in the loop reads it, and what its size and first bytes say before it is
// read. Pure: the tailer stats the file and reads its head, this decides. In order:
// Before looking at the file (startTurn):
// 1. closed, parked or released: nothing to read;
// 2. held: it was truncated and its copy, which holds older lines, may still turn up: wait for
//    the tick (truncation.ts);
// 3. it waits for another file's rest (rename-and-create: the renamed file; copy-and-truncate: the
//    copy) and that file is not read to its end yet: wait; its end wakes this one;
// 4. otherwise: look (stat and head, then checkContent).
// Given its size and first bytes (checkContent):
// 5. smaller than what was read: truncated in place (copy-and-truncate, `> file`): a new generation;
// 6. other first bytes than before: truncated and rewritten past the read offset already (the app
//    is fast, the tailer behind), or the bytes read were never this content: a new generation;
// 7. in probation with a head still short, neither quiet for a tick nor detached: wait (it may be
//    a copy still being written);
// 8. in probation otherwise: classify it (new-file.ts);
// 9. otherwise: read it. The read paths check rule 6 again after each chunk, before its lines leave.

import { HEAD_BYTES, headContinues } from './file-identity'
import type { FileGenerationPhase } from './file-generation'

export interface TurnFacts {
  readonly open: boolean
  readonly phase: FileGenerationPhase
  readonly held: boolean
  /** The file whose rest comes first (`waitsFor`); `queued`: it is marked for a read. */
  readonly waitsFor:
    | {
        readonly phase: FileGenerationPhase
        readonly readOffset: number
        readonly size: number
        readonly queued: boolean
      }
    | undefined
}

export type TurnStart =
  | { readonly kind: 'nothing-to-read' }
  | { readonly kind: 'wait-for-copy' }
  | { readonly kind: 'wait-for-older-lines' }
  | { readonly kind: 'look' }

export function startTurn(file: TurnFacts): TurnStart {
  if (!file.open || file.phase === 'parked' || file.phase === 'released') return { kind: 'nothing-to-read' }
  if (file.held) return { kind: 'wait-for-copy' }
  const older = file.waitsFor
  // Its size may be from before the copy was complete: it has caught up once a read found its end.
  if (older !== undefined && older.phase === 'active' && (older.queued || older.readOffset < older.size))
    return { kind: 'wait-for-older-lines' }
  return { kind: 'look' }
}

export interface ContentFacts {
  readonly phase: FileGenerationPhase
  readonly readOffset: number
  /** The head as last seen. */
  readonly knownHead: Buffer
  readonly size: number
  /** The first bytes now (at most `size` of them). */
  readonly head: Buffer
  readonly settled: boolean
  readonly detached: boolean
}

export type ContentCheck =
  | { readonly kind: 'truncated'; readonly reason: 'shorter' | 'other-first-bytes' }
  | { readonly kind: 'wait-in-probation' }
  | { readonly kind: 'classify' }
  | { readonly kind: 'read' }

export function checkContent(facts: ContentFacts): ContentCheck {
  if (facts.size < facts.readOffset) return { kind: 'truncated', reason: 'shorter' }
  if (!headContinues(facts.knownHead, facts.head)) return { kind: 'truncated', reason: 'other-first-bytes' }
  if (facts.phase !== 'probation') return { kind: 'read' }
  if (facts.head.length < HEAD_BYTES && !facts.settled && !facts.detached) return { kind: 'wait-in-probation' }
  return { kind: 'classify' }
}
