// The pre-filter's types others import (the tailer's callers, the targets, the dry run). A leaf.
import type { LineBatch, TailLine } from '../tail'

export interface CandidateScan {
  /** Lines that may be selected, in file order. */
  candidates: TailLine[]
  /** Lines whose first byte is not `{` (a `json` source counts them as parse errors). */
  notJson: number
}

export type CandidateFilter = (batch: LineBatch) => CandidateScan
