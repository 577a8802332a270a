// Public surface of the byte pre-filter: which lines may carry what some rule wants. Re-exports only.
export { createCandidateFilter } from './candidate-filter'
export { deployThreshold, ANY_LEVEL } from './deploy-threshold'
export { createStreamLines, STREAM_MAX_LINE_BYTES, type StreamLines } from './stream-lines'
export type * from './types'
