// The kinds kept in state_dir: the public surface (re-exports only).
export { openKindStore } from './kind-store'
export { KindStoreError, KindStoreErrorCodes, type KindStoreErrorCode } from './errors'
export type { KindDelta, KindEntry, KindStore, KindStoreOptions, KindStoreStats } from './types'
