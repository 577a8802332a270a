// Sends made while Redis was down (or the claim failed), kept in order to be marked sent on reconnect,
// where nobody else claimed the notice (or over this agent's own lease): what was paged is not paged
// again. Bounded: past MAX_DEGRADED_MARKS the oldest go. One merge runs at a time.
import type { DeliveryLog } from '../delivery/types'
import { runSents } from './claim-script'
import { ClusterErrorCodes } from './errors'
import type { Keys } from './keys'
import { isErrorReply, type RedisLink } from './redis-connection'
import type { FleetNotice } from './types'

/** Sends made while Redis was down, kept to be marked sent on reconnect; past this the oldest go. */
export const MAX_DEGRADED_MARKS = 10_000

export interface DegradedMarks {
  remember(n: FleetNotice): void
  /** Marks what is kept while Redis is up; the running merge when one is under way. */
  merge(): Promise<void>
}

export interface DegradedMarksOptions {
  link: RedisLink
  keys: Keys
  agentId: string
  leaseMs: number
  log: DeliveryLog
  /** Each mark written (a notice nobody else had claimed). */
  onMerged(): void
}

export function createDegradedMarks(options: DegradedMarksOptions): DegradedMarks {
  const { link, keys, agentId, leaseMs, log } = options
  const kept: FleetNotice[] = []
  let merging: Promise<void> | undefined

  async function mergeKept(): Promise<void> {
    while (kept.length > 0 && link.isUp()) {
      const n = kept[0] as FleetNotice
      try {
        const [written] = await runSents(link, keys, agentId, leaseMs, [{ n, mode: 'merge' }])
        if (written === true) options.onMerged()
      } catch (err) {
        if (!isErrorReply(err)) return
        log.error(
          { code: ClusterErrorCodes.PROTOCOL, incident: n.incident, err: (err as Error).message },
          'cluster: Redis refused a sent mark',
        )
      }
      kept.shift()
    }
  }

  return {
    remember(n) {
      kept.push(n)
      if (kept.length > MAX_DEGRADED_MARKS) kept.shift()
    },
    merge() {
      merging ??= mergeKept().finally(() => {
        merging = undefined
      })
      return merging
    },
  }
}
