// The store's bookkeeping decisions, pure (record-index.ts and store.ts apply them):
// 1. a listing is newest first: item `i` of it is the `length - 1 - i`th record kept; `limit` caps
//    how many of the newest it holds at all (`total`), and a page is the slice of that;
// 2. past the retention the oldest records of a kind go, as many as are over;
// 3. the arrival list sheds dead slots in batches: once they are SWEEP_AT and at least half of it;
// 4. the journal is rewritten when its appends since the last rewrite pass the live records by more
//    than COMPACT_SLACK (it grows with each append while memory is capped);
// 5. a record's id is its kind's prefix (`obd` for voice, `act` for activities...) and its seq;
// 6. lead ids are digit strings from FIRST_LEAD_ID (the activity call takes `lead_id` as an int); a
//    lead replayed from the journal moves the counter past its id;
// 7. past the store's byte cap the oldest records go, whatever their kind, until the bytes kept are
//    within it again; the seeded read-only lookups (instances, chat groups) are counted, never dropped
//    (without them the chat routes answer nothing);
// 8. a record's bytes are its JSON text's UTF-8 length.
import type { StoredKind } from './stored-kinds'

export const SWEEP_AT = 1024
export const COMPACT_SLACK = 1000
export const FIRST_LEAD_ID = 1001

const ID_PREFIX: Record<StoredKind, string> = {
  sms: 'sms',
  mail: 'mail',
  chat: 'chat',
  voice: 'obd',
  lead: 'lead',
  activity: 'act',
  social: 'soc',
  missed: 'mc',
  instance: 'inst',
  chat_group: 'grp',
}

/** The positions (oldest-first indices) of a page of a newest-first listing, and its total. */
export function pagePositions(
  length: number,
  page: number,
  perPage: number,
  limit: number | undefined,
): { positions: number[]; total: number } {
  const total = limit === undefined ? length : Math.min(limit, length)
  const positions: number[] = []
  const start = (page - 1) * perPage
  for (let i = Math.max(0, start); i < Math.min(start + perPage, total); i++) positions.push(length - 1 - i)
  return { positions, total }
}

export const retentionExcess = (kept: number, retention: number): number => Math.max(0, kept - retention)

export const shouldSweep = (dead: number, arrival: number): boolean => dead >= SWEEP_AT && dead * 2 >= arrival

/** Rule 7: the kinds the byte cap may drop. */
export const evictable = (kind: StoredKind): boolean => kind !== 'instance' && kind !== 'chat_group'

/** Rule 7: whether the bytes kept are over the cap (another of the oldest must go). */
export const overByteCap = (bytes: number, maxBytes: number): boolean => bytes > maxBytes

/** Rule 8. */
export const recordBytes = (json: string): number => Buffer.byteLength(json, 'utf8')

export const shouldCompact = (appendedSinceRewrite: number, live: number): boolean =>
  appendedSinceRewrite > live + COMPACT_SLACK

export const recordId = (kind: StoredKind, seq: number): string => `${ID_PREFIX[kind]}-${seq}`

export function leadCounterAfter(counter: number, kind: StoredKind, record: Record<string, unknown>): number {
  if (kind !== 'lead') return counter
  const n = Number(record['lead_id'])
  return Number.isSafeInteger(n) ? Math.max(counter, n) : counter
}
