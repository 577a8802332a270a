// Which recorded pages are sent again at start because the outbox that held them was found damaged
// (its lost records could have been those pages, unsent). Pure: the alert path asks, the incident
// state applies (repage). The incident state is written after the outbox has a page, so with a
// whole outbox a page missing from it was sent (done) or given up (dead); only a damaged one leaves
// a recorded page that may never have gone out.
//
// 1. Nothing is sent again when the outbox lost no records (whole, or only a torn last record: the
//    state is written after the outbox, so a torn batch was never recorded as paged).
// 2. A paged incident whose page is in the outbox still: it goes out from there.
// 3. An acknowledged incident: a person has it already.
// 4. One kept without its incident (files of earlier versions): nothing to page it with again; its
//    next line does.
// 5. Every other paged incident is sent again: made pending with its last line, so it fires anew.
import type { PagedIncident } from './types'

/** Rules 1-5: the keys to page again, in the state's order. */
export function pagesToResend(
  paged: ReadonlyMap<string, PagedIncident>,
  inOutbox: ReadonlySet<string>,
  outboxLostRecords: boolean,
): string[] {
  if (!outboxLostRecords) return []
  const keys: string[] = []
  for (const [key, p] of paged) {
    if (inOutbox.has(key)) continue
    if (p.incident === undefined) continue
    if (p.incident.snapshot.status === 'acknowledged') continue
    keys.push(key)
  }
  return keys
}
