// createCluster: one Redis link, and on it the notification log (claim/sent), the incident flush,
// the shared actions, the peer heartbeat and the listings. Fail open throughout: with Redis down a
// claim answers `degraded` at once (the client never queues offline) with the key derived locally,
// the send is remembered, and on reconnect it is marked sent (where nobody else claimed it), the
// buffered deltas and waiting actions are written, and the action stream is read from the last id.
// What a claim's answer and a send lead to is claim-rules.ts's; this file wires the parts.
import { hostname } from 'node:os'
import type { ClusterConfig } from '../config/types'
import type { DeliveryLog } from '../delivery/types'
import { batched } from './batch'
import { runClaims, runSents, type ClaimAnswer } from './claim-script'
import { afterSend, countClaim, degradedClaim, noClaims, type ClaimCounts } from './claim-rules'
import { createDegradedMarks } from './degraded-marks'
import { ClusterError, ClusterErrorCodes } from './errors'
import { listIncidents, listSilences } from './fleet-incidents'
import { createFleetKinds } from './fleet-kinds'
import { createFleetLeads } from './fleet-leads'
import { createIncidentFlusher } from './incident-flush'
import { createKeys, type Keys } from './keys'
import { createPeerBeat } from './peers'
import { createRedisLink, isErrorReply, reasonOf, type RedisLink } from './redis-connection'
import { createSentAnnouncements } from './sent-announcements'
import { createActionPublisher, createActionReader } from './shared-actions'
import type { Claim, Cluster, ClusterStats, ClusterStatus, FleetNotice } from './types'

export interface ClusterOptions {
  log: DeliveryLog
  /** This host's name in `P peer:<agent>` (default: os.hostname()). */
  host?: string
  onStatus?: (s: ClusterStatus) => void
}

/** The caller reports transitions when it listens; otherwise they are logged here. */
function statusReporter(config: ClusterConfig, options: ClusterOptions): (status: ClusterStatus) => void {
  return (status) => {
    if (options.onStatus !== undefined) return options.onStatus(status)
    const agent = config.agentId
    if (status.status === 'up') {
      options.log.info({ agent }, 'cluster: Redis is up; the fleet shares its incidents again')
    } else {
      options.log.warn({ agent, reason: status.reason }, 'cluster: Redis is unreachable; paging on our own (fail open)')
    }
  }
}

/** The notification log: claims and sent marks, batched per turn, failing open. */
function createNoticeLog(link: RedisLink, keys: Keys, config: ClusterConfig, log: DeliveryLog, counts: ClaimCounts) {
  const { agentId, leaseMs } = config
  const marks = createDegradedMarks({ link, keys, agentId, leaseMs, log, onMerged: () => counts.merged++ })
  // Claims and won marks of one turn go to Redis in one script call each (batch.ts).
  const claimOne = batched<FleetNotice, ClaimAnswer>((notices) => runClaims(link, keys, agentId, leaseMs, notices))
  const markWon = batched<FleetNotice, boolean>((notices) =>
    runSents(
      link,
      keys,
      agentId,
      leaseMs,
      notices.map((n) => ({ n, mode: 'won' })),
    ),
  )

  async function ask(n: FleetNotice): Promise<Claim> {
    if (!link.isUp()) return degradedClaim(n, link.status().reason ?? reasonOf(new Error('not connected')))
    try {
      return await claimOne(n)
    } catch (err) {
      // A refused or unreadable answer fails open too (a duplicate beats silence), and is logged:
      // unlike an unreachable Redis, status() does not say it.
      if (isErrorReply(err) || err instanceof ClusterError) {
        log.error(
          { code: ClusterErrorCodes.PROTOCOL, incident: n.incident, err: (err as Error).message },
          'cluster: a claim failed; sending anyway',
        )
      }
      return degradedClaim(n, link.status().reason ?? reasonOf(err))
    }
  }

  async function sent(n: FleetNotice, claim: Claim): Promise<void> {
    const followUp = afterSend(claim, link.isUp())
    if (followUp === 'none') return
    if (followUp === 'remember') {
      marks.remember(n)
      if (link.isUp()) await marks.merge().catch(() => undefined)
      return
    }
    try {
      await markWon(n)
    } catch (err) {
      // Down between claim and sent: marked on reconnect, over our own lease.
      if (!isErrorReply(err)) marks.remember(n)
      else log.error({ incident: n.incident, err: (err as Error).message }, 'cluster: Redis refused a sent mark')
    }
  }

  return {
    async claim(n: FleetNotice): Promise<Claim> {
      const answer = await ask(n)
      countClaim(counts, answer)
      return answer
    },
    sent,
    merge: () => marks.merge(),
  }
}

export function createCluster(config: ClusterConfig, options: ClusterOptions): Cluster {
  const { log } = options
  const { agentId } = config
  const keys = createKeys(config.redis.keyPrefix)
  const counts: ClaimCounts = noClaims()
  const link = createRedisLink(config, { onStatus: statusReporter(config, options) })
  const notices = createNoticeLog(link, keys, config, log, counts)
  const flusher = createIncidentFlusher({ link, keys, agentId, flushMs: config.flushMs, log })
  const publisher = createActionPublisher({ link, keys, agentId, log })
  const reader = createActionReader({ link, keys, agentId, commandTimeoutMs: config.commandTimeoutMs, log })
  const announcements = createSentAnnouncements(link, keys, log)
  const host = options.host ?? hostname()
  const beat = createPeerBeat({ link, keys, agentId, host, heartbeatMs: config.heartbeatMs, started: Date.now() })
  let closed = false

  link.onUp(() => {
    void notices.merge()
    void publisher.resend()
    void flusher.flush()
    void beat.beat()
  })

  return {
    agentId,
    leaseMs: config.leaseMs,
    leads: createFleetLeads(link, keys, agentId, config.leaseMs, log),
    kinds: createFleetKinds({ link, keys, agentId, log }),
    async start() {
      await link.start()
      flusher.start()
      beat.start()
      announcements.start()
      await reader.start()
    },
    status: () => link.status(),
    claim: (n) => notices.claim(n),
    sent: (n, claim) => notices.sent(n, claim),
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
      if (link.isUp()) await Promise.allSettled([flusher.flush(), notices.merge(), publisher.resend()])
      link.close()
    },
  }
}
