// Data the sandbox holds for clients to read but never receives from them: instances, chat groups,
// missed calls, and profile search results.

import type { WireSocialProfile } from '../messaging/wire'
import { sha256 } from '../sha256'
import { SANDBOX_MISSED_CALL_NUMBER } from './missed-calls'
import type { StoredKind } from './stored-kinds'
import type { Store } from './types'

const NETWORKS = ['facebook', 'instagram', 'linkedin', 'x'] as const

/** Deterministic results, so paging through a search is stable: 45 profiles per keyword. */
export const SEARCH_RESULTS_PER_KEYWORD = 45

export function socialProfiles(keyword: string): WireSocialProfile[] {
  const tag = sha256(Buffer.from(keyword)).toString('hex').slice(0, 8)
  const out: WireSocialProfile[] = []
  for (let i = 1; i <= SEARCH_RESULTS_PER_KEYWORD; i++) {
    const network = NETWORKS[i % NETWORKS.length] ?? 'x'
    out.push({
      id: `prof-${tag}-${i}`,
      name: `${keyword} #${i}`,
      network,
      url: `https://${network}.example/${encodeURIComponent(keyword)}-${i}`,
    })
  }
  return out
}

/** Stores records as given, filling in `id` and `created_at` when they lack them. */
export function seedRecords(store: Store, kind: StoredKind, records: readonly Record<string, unknown>[]): number {
  for (const given of records) {
    store.add(kind, ({ id, createdAt }) => ({ id, created_at: createdAt, ...given }))
  }
  return records.length
}

export const DEFAULT_INSTANCE_ID = 'sandbox-instance-1'

export function seedDefaults(store: Store): void {
  seedRecords(store, 'instance', [{ instance_id: DEFAULT_INSTANCE_ID, name: 'Sandbox chat line', status: 'connected' }])
  seedRecords(store, 'chat_group', [
    { name: 'On-call engineers', instance_id: DEFAULT_INSTANCE_ID, participants: 6 },
    { name: 'Incident bridge', instance_id: DEFAULT_INSTANCE_ID, participants: 14 },
  ])
  // From numbers no config names: they show that a missed call from a stranger changes nothing.
  seedRecords(store, 'missed', [
    { caller: '15550100001', called: SANDBOX_MISSED_CALL_NUMBER },
    { caller: '15550100002', called: SANDBOX_MISSED_CALL_NUMBER },
  ])
}
