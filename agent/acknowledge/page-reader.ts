// One poll's reading of `missed_record`: newest first, page by page, until missed-calls-cursor.ts's
// rule 7 says stop. Each page is one attempt; a failed page fails the read (the poll hands nothing
// over and remembers nothing).
import type { MessagingClient } from '../messaging'
import type { DeliveryLog } from '../delivery/types'
import { EMPTY_STATE, judgePage, nextStep, PER_PAGE, type ListedCall, type SeenState } from './missed-calls-cursor'
import { failureOf, type FailureLog } from './poll-failures'

export interface PagesRead {
  fresh: ListedCall[]
  pages: number
  /** Paging reached a seen record or the end of the listing (cursor rule 10). */
  complete: boolean
  capped: boolean
}

export interface PageReader {
  /** Undefined when a page failed (counted and logged by `failures`). */
  read(known: SeenState | undefined): Promise<PagesRead | undefined>
}

export function createPageReader(
  client: Pick<MessagingClient, 'listMissedCallRecords'>,
  failures: FailureLog,
  log: DeliveryLog,
): PageReader {
  let malformedReported = false

  return {
    async read(state) {
      const firstStart = state === undefined
      const known = state ?? EMPTY_STATE
      const fresh: ListedCall[] = []
      const readThisPoll = new Set<string>()
      let malformed = 0
      for (let pages = 1; ; pages++) {
        let listing
        try {
          listing = await client.listMissedCallRecords({ perPage: PER_PAGE, page: pages })
        } catch (err) {
          failures.failed(failureOf(err, 'list'))
          return undefined
        }
        const judged = judgePage(known, listing.records, readThisPoll)
        malformed += judged.malformed
        for (const call of judged.fresh) {
          readThisPoll.add(call.id)
          fresh.push(call)
        }
        const step = nextStep(judged, listing.hasMore, pages, firstStart)
        if (step === 'next') continue
        // Such a record stays in the listing: said once, not at every poll.
        if (malformed > 0 && !malformedReported) log.warn({ malformed }, 'missed-call records without an id skipped')
        malformedReported ||= malformed > 0
        return { fresh, pages, complete: judged.reachedKnown || !listing.hasMore, capped: step === 'capped' }
      }
    },
  }
}
