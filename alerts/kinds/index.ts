// Public surface of the kinds domain (issue #29): the miner that gives each event a kind, and the
// vocabulary (types.ts) the kind table, the store and the fleet share.
export type {
  AlertLine,
  HourlyCounts,
  KindDelta,
  KindEntry,
  KindMiner,
  KindMinerOptions,
  KindMinerStats,
  KindRef,
} from './types'
export { createKindMiner } from './miner'
export { DEFAULT_DIGEST_LIMITS, digestOf } from './digest'
export type { Digest, DigestIncidentInput, DigestKind, DigestLimits, DigestList } from './digest'
export { digestSubject } from './digest-format'
export type { DigestView } from './digest-format'
export { DIGEST_HTML_MAX_BYTES, digestHtml, digestHtmlWithin } from './digest-html'
export { digestShort, digestText } from './digest-text'
export { createKindTable, MAX_HOSTS, MAX_SAMPLE } from './kind-table'
export type { KindSeen, KindTable, KindTableOptions, KindTableStats } from './kind-table'
export { addHourly, HOUR_MS, HOURLY_BUCKETS, hourlySeries, hourOf, trimHourly } from './kind-table-hourly'
export type { DeployWatch, KindRuleConfig } from './kind-rules-config'
export { DEFAULT_QUIET_MS, DEFAULT_SPIKE_WINDOW_MS } from './kind-rules-config'
export { DEFAULT_KINDS_LEARN_MS, DEFAULT_KINDS_MAX } from './kind-rules-engine'
export type { KindEngineOptions } from './kind-rules-engine'
export { KIND_FIELD, kindIdOf } from './kind-vars'
export type { KindView } from './kind-vars'
