// agent/tail: a self-contained file tailer. It knows nothing of alerts; the agent wires it.

export { createTailer } from './tailer'
export type { Tailer, TailFileStatus, TailStats } from './tailer'
export { batchLine } from './batch'
export type { LineBatch, LineChunk } from './batch'
export type { TailerOptions, StartAt } from './options'
export type { FollowSymlinks } from './link-decision'
export type { TailLine } from './line-splitter'
export { TailError, TailErrorCodes } from './errors'
export type { TailErrorCode } from './errors'
export { CHECKPOINT_VERSION } from './checkpoint-store'
export { HEAD_BYTES } from './file-identity'
export type { FileGenerationPhase } from './file-generation'
// The line splitter and batches, for callers that split other byte streams the same way.
export { createChunkBatch, createLineBatch } from './batch'
export type { BatchOrigin } from './batch'
export { createLineSplitter } from './line-splitter'
export type { LineSplitter, SplitChunk } from './line-splitter'
