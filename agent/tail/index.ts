// agent/tail: a self-contained file tailer. It knows nothing of alerts; the agent wires it.

export { createTailer } from './tailer'
export type { Tailer, TailFileStatus, TailStats } from './tailer'
export type { LineBatch } from './batch'
export type { TailerOptions, StartAt } from './options'
export type { TailLine } from './line-splitter'
export { TailError, TailErrorCodes } from './errors'
export type { TailErrorCode } from './errors'
export { CHECKPOINT_VERSION } from './checkpoint-store'
export { HEAD_BYTES } from './fingerprint'
export { createLineMatcher } from './line-matcher'
export type { LineMatcher } from './line-matcher'
export type { SourcePhase } from './source'
