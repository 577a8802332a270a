// createCluster: one Redis link, and on it the notification log (claim/sent), the incident flush,
// the shared actions, the peer heartbeat and the listings. Fail open throughout: with Redis down a
// claim answers `degraded` at once (the client never queues offline) with the key derived locally,
// the send is remembered, and on reconnect it is marked sent (where nobody else claimed it), the
// buffered deltas and waiting actions are written, and the action stream is read from the last id.
import { hostname } from 'node:os'
import type { ClusterConfig } from '../config/types'
import type { DeliveryLog } from '../delivery/types'
import { batched } from './batch'
import { runClaims, runSents, type ClaimAnswer } from './claim-script'
import { ClusterError, ClusterErrorCodes } from './errors'
import { listIncidents, listSilences } from './fleet-incidents'
import { createFleetLeads } from './fleet-leads'
import { createIncidentFlusher } from './incident-flush'
import type { Claim, Cluster, ClusterStats, ClusterStatus, FleetNotice } from './index'
import { createKeys, idempotencyKey } from './keys'
import { createPeerBeat } from './peers'
import { createRedisLink, isErrorReply, reasonOf } from './redis-connection'
import { createSentAnnouncements } from './sent-announcements'
import { createActionPublisher, createActionReader } from './shared-actions'

export interface ClusterOptions {
  log: DeliveryLog
  /** This host's name in `P peer:<agent>` (default: os.hostname()). */
  host?: string
  onStatus?: (s: ClusterStatus) => void
}

/** Sends made while Redis was down, kept to be marked sent on reconnect; past this the oldest go. */
export const MAX_DEGRADED_MARKS = 10_000

export function createCluster(config: ClusterConfig, options: ClusterOptions): Cluster {
  const { log } = options
  const agentId = config.agentId
  const keys = createKeys(config.redis.keyPrefix)
  const counts = { claimsWon: 0, claimsLost: 0, claimsHeld: 0, failovers: 0, acked: 0, degradedSends: 0, merged: 0 }
  const link = createRedisLink(config, {
    onStatus(status) {
      // The caller reports transitions when it listens; otherwise they are logged here.
      if (options.onStatus !== undefined) return options.onStatus(status)
      if (status.status === 'up')
        log.info({ agent: agentId }, 'cluster: Redis is up; the fleet shares its incidents again')
      else
        log.warn(
          { agent: agentId, reason: status.reason },
          'cluster: Redis is unreachable; paging on our own (fail open)',
        )
    },
  })
  const flusher = createIncidentFlusher({ link, keys, agentId, flushMs: config.flushMs, log })
  const publisher = createActionPublisher({ link, keys, agentId, log })
  const reader = createActionReader({ link, keys, agentId, commandTimeoutMs: config.commandTimeoutMs, log })
  const announcements = createSentAnnouncements(link, keys, log)
  const beat = createPeerBeat({
    link,
    keys,
    agentId,
    host: options.host ?? hostname(),
    heartbeatMs: config.heartbeatMs,
    started: Date.now(),
  })
  // Claims and won marks of one turn go to Redis in one script call each (batch.ts).
  const claimOne = batched<FleetNotice, ClaimAnswer>((notices) =>
    runClaims(link, keys, agentId, config.leaseMs, notices),
  )
  const markWon = batched<FleetNotice, boolean>((notices) =>
    runSents(
      link,
      keys,
      agentId,
      config.leaseMs,
      notices.map((n) => ({ n, mode: 'won' })),
    ),
  )
  const degradedMarks: FleetNotice[] = []
  let merging: Promise<void> | undefined
  let closed = false

  async function mergeMarks(): Promise<void> {
    while (degradedMarks.length > 0 && link.isUp()) {
      const n = degradedMarks[0] as FleetNotice
      try {
        const [written] = await runSents(link, keys, agentId, config.leaseMs, [{ n, mode: 'merge' }])
        if (written === true) counts.merged++
      } catch (err) {
        if (!isErrorReply(err)) return
        log.error(
          { code: 'LOGX_CLUSTER_ERR_PROTOCOL', incident: n.incident, err: (err as Error).message },
          'cluster: Redis refused a sent mark',
        )
      }
      degradedMarks.shift()
    }
  }

  function merge(): Promise<void> {
    merging ??= mergeMarks().finally(() => {
      merging = undefined
    })
    return merging
  }

  function remember(n: FleetNotice): void {
    degradedMarks.push(n)
    if (degradedMarks.length > MAX_DEGRADED_MARKS) degradedMarks.shift()
  }

  link.onUp(() => {
    void merge()
    void publisher.resend()
    void flusher.flush()
    void beat.beat()
  })

  function degraded(n: FleetNotice, err: unknown): Claim {
    counts.degradedSends++
    return {
      outcome: 'degraded',
      idempotencyKey: idempotencyKey(n, String(n.firedAt)),
      reason: link.status().reason ?? reasonOf(err),
    }
  }

  return {
    agentId,
    leaseMs: config.leaseMs,
    leads: createFleetLeads(link, keys, agentId, config.leaseMs, log),
    async start() {
      await link.start()
      flusher.start()
      beat.start()
      announcements.start()
      await reader.start()
    },
    status: () => link.status(),
    async claim(n) {
      if (!link.isUp()) return degraded(n, new Error('not connected'))
      let answer
      try {
        answer = await claimOne(n)
      } catch (err) {
        // A refused or unreadable answer fails open too (a duplicate beats silence), and is logged:
        // unlike an unreachable Redis, status() does not say it.
        if (isErrorReply(err) || err instanceof ClusterError)
          log.error(
            { code: ClusterErrorCodes.PROTOCOL, incident: n.incident, err: (err as Error).message },
            'cluster: a claim failed; sending anyway',
          )
        return degraded(n, err)
      }
      switch (answer.outcome) {
        case 'won':
          counts.claimsWon++
          if (answer.failover) counts.failovers++
          break
        case 'done':
          counts.claimsLost++
          break
        case 'held':
          counts.claimsHeld++
          break
        case 'acked':
          counts.acked++
          break
      }
      return answer
    },
    async sent(n, claim) {
      if (claim.outcome !== 'won' && claim.outcome !== 'degraded') return
      if (claim.outcome === 'degraded' || !link.isUp()) {
        remember(n)
        if (link.isUp()) await merge().catch(() => undefined)
        return
      }
      try {
        await markWon(n)
      } catch (err) {
        // Down between claim and sent: marked on reconnect, over our own lease.
        if (!isErrorReply(err)) remember(n)
        else log.error({ incident: n.incident, err: (err as Error).message }, 'cluster: Redis refused a sent mark')
      }
    },
    observe(key, delta) {
      try {
        if (!closed) flusher.buffer.add(key, delta)
      } catch {
        // Never throws into the line path.
      }
    },
    onSent: (handler) => announcements.onSent(handler),
    listening: () => announcements.listening(),
    onFleetSeen: (handler) => flusher.onSeen(handler),
    publish: (action) => publisher.publish(action),
    onAction: (handler) => reader.onAction(handler),
    silences: () => listSilences(link, keys, Date.now()),
    incidents: (limit) => listIncidents(link, keys, limit),
    peers: () => beat.list(),
    stats(): ClusterStats {
      const { status } = link.status()
      return { status, peers: status === 'up' ? beat.seen : 0, ...counts, ...link.counters }
    },
    async close() {
      if (closed) return
      closed = true
      flusher.stop()
      beat.stop()
      reader.close()
      announcements.close()
      // What can still be written goes now; a down Redis does not hold the close up.
      if (link.isUp()) await Promise.allSettled([flusher.flush(), merge(), publisher.resend()])
      link.close()
    },
  }
}
