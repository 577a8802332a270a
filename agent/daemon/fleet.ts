// The agent as one of a fleet (issue #16, `cluster:`): the shared state of agent/cluster joined to the
// alert path. Each line a rule selects is counted toward its incident fleet-wide (buffered, flushed
// per incident); what the fleet saw comes back to the engine (thresholds met across hosts, no resolve
// while a host still sees the lines); every notice is claimed before it goes out; what people do here
// is published and what they did elsewhere is taken here without sending. Loaded only by a config
// with `cluster:`.
import type { Cluster, ClusterStatus, FleetIncident } from '../cluster/types'
import type { ClusterConfig } from '../config/types'
import type { AlertPipeline } from '../delivery/types'
import type { FleetHooks } from '../delivery/fleet'
import type { IncidentActions } from '../acknowledge/incident-actions'
import type { Metric } from './metrics-server'
import type { AgentLogger } from './logger'

export interface Fleet {
  readonly cluster: Cluster
  readonly hooks: FleetHooks
  /** Once the alert path exists: the fleet's counts, actions and silences reach it. */
  attach(path: { pipeline: AlertPipeline; actions: IncidentActions }): Promise<void>
  /**
   * The fleet's incidents by key, as last read: the console and `logx-agent incidents` show them with
   * the hosts that saw each. `refreshView` reads them again when someone asks (at most once per
   * VIEW_MAX_AGE_MS; nothing is read while nobody looks).
   */
  view(): ReadonlyMap<string, FleetIncident>
  refreshView(): Promise<void>
  /** For /health: degraded (paging on our own) with the reason, while Redis is out of reach. */
  health(): { status: ClusterStatus['status']; reason: string | undefined; agent: string; peers: number }
  metrics(): Metric[]
  close(): Promise<void>
}

const VIEW_MAX_AGE_MS = 1000
const VIEW_LIMIT = 1000

export async function startFleet(config: ClusterConfig, log: AgentLogger, now: () => number): Promise<Fleet> {
  const { createCluster } = await import('../cluster/index.js')
  let path: { pipeline: AlertPipeline; actions: IncidentActions } | undefined
  const cluster = createCluster(config, {
    log,
    onStatus(status) {
      if (status.status === 'degraded')
        log.warn(
          { reason: status.reason },
          `fleet: Redis is out of reach (${status.reason ?? 'unknown'}): this agent pages on its own until it is back`,
        )
      else {
        log.info(
          { agent: config.agentId },
          'fleet: Redis reached; what was paged meanwhile is merged into the notification log',
        )
        void syncSilences()
      }
    },
  })

  /**
   * The run-time silences in force in the fleet, taken here: at start, and again each time Redis is
   * back (one made while this agent could not read the stream would be missed otherwise).
   */
  async function syncSilences(): Promise<void> {
    if (path === undefined) return
    const { actions } = path
    try {
      const known = new Set(actions.silences(now()).map((s) => s.id))
      for (const silence of await cluster.silences())
        if (!known.has(silence.id)) actions.applyShared({ type: 'silence', silence, at: now() }, now())
    } catch (err) {
      log.warn({ err }, 'fleet: could not read the silences of the fleet; they are read again when Redis is back')
    }
  }
  // A refused password is the config's error and stops the start; Redis out of reach does not.
  await cluster.start()
  const reader = createViewReader(cluster, log, now)

  const hooks = fleetHooks(cluster, () => path?.actions, now)

  return {
    cluster,
    hooks,
    async attach(attached) {
      path = attached
      cluster.onFleetSeen((seen) => attached.pipeline.seenElsewhere(seen, now()))
      cluster.onAction((action) => attached.actions.applyShared(action, now()))
      await syncSilences()
    },
    view: reader.view,
    refreshView: reader.refresh,
    health() {
      const status = cluster.status()
      return { status: status.status, reason: status.reason, agent: cluster.agentId, peers: cluster.stats().peers }
    },
    metrics: () => clusterMetrics(cluster),
    close: () => cluster.close(),
  }
}

/** The fleet's incidents as last read, and their reading again (at most once per VIEW_MAX_AGE_MS). */
function createViewReader(
  cluster: Cluster,
  log: AgentLogger,
  now: () => number,
): { view(): ReadonlyMap<string, FleetIncident>; refresh(): Promise<void> } {
  let view = new Map<string, FleetIncident>()
  let readAt = -Infinity
  let reading: Promise<void> | undefined
  // One read at a time, and none while Redis is out of reach (the last view stays).
  const refresh = (): Promise<void> => {
    if (cluster.status().status !== 'up' || now() - readAt < VIEW_MAX_AGE_MS) return Promise.resolve()
    reading ??= cluster
      .incidents(VIEW_LIMIT)
      .then((incidents) => {
        view = new Map(incidents.map((i) => [i.key, i]))
        readAt = now()
      })
      .catch((err: unknown) => log.warn({ err }, 'fleet: could not read the incidents of the fleet'))
      .finally(() => void (reading = undefined))
    return reading
  }
  return { view: () => view, refresh }
}

/**
 * What the alert path tells the fleet (lines selected, notices decided, actions taken) and asks of
 * it (claims); an ack taken elsewhere reaches the actions once the path is attached.
 */
function fleetHooks(cluster: Cluster, actions: () => IncidentActions | undefined, now: () => number): FleetHooks {
  return {
    gate: {
      claims: cluster,
      onAcked(incident, ack) {
        const attached = actions()
        if (ack === undefined || attached === undefined) return
        attached.applyShared(
          { type: 'ack', key: incident, actor: { by: ack.by, via: ack.via, detail: ack.detail }, at: ack.at },
          now(),
        )
      },
    },
    selected(selected, at) {
      cluster.observe(selected.key, {
        rule: selected.rule.name,
        title: '',
        count: 1,
        first: at,
        last: at,
        windowMs: selected.rule.threshold?.withinMs,
      })
    },
    decided(deliveries) {
      let previous: unknown
      for (const { notice } of deliveries) {
        // One notice goes to several channels: the table hears of it once.
        if (notice.kind !== 'firing' || notice.incident === previous) continue
        previous = notice.incident
        const { key, rule, title, firstSeen, lastSeen } = notice.incident
        cluster.observe(key, { rule, title, count: 0, first: firstSeen, last: lastSeen })
      }
    },
    published(action) {
      void cluster.publish(action)
    },
  }
}

function clusterMetrics(cluster: Cluster): Metric[] {
  const s = cluster.stats()
  const counter = (name: string, help: string, value: number): Metric => ({
    name,
    help,
    type: 'counter',
    samples: [{ value }],
  })
  return [
    {
      name: 'logx_agent_cluster_up',
      help: 'Whether Redis is reached (1) or the agent pages on its own, failing open (0)',
      type: 'gauge',
      samples: [{ value: s.status === 'up' ? 1 : 0 }],
    },
    {
      name: 'logx_agent_cluster_peers',
      help: 'Agents of the fleet seen within three heartbeats, this one included',
      type: 'gauge',
      samples: [{ value: s.peers }],
    },
    {
      name: 'logx_agent_cluster_claims_total',
      help:
        'Notification claims by outcome: won (sent here), lost (sent by another agent), ' +
        'held (another agent was sending), acked (a page of an incident acknowledged elsewhere)',
      type: 'counter',
      samples: [
        { labels: { outcome: 'won' }, value: s.claimsWon },
        { labels: { outcome: 'lost' }, value: s.claimsLost },
        { labels: { outcome: 'held' }, value: s.claimsHeld },
        { labels: { outcome: 'acked' }, value: s.acked },
      ],
    },
    counter(
      'logx_agent_cluster_failovers_total',
      'Notifications sent here after the agent that claimed them let the lease run out',
      s.failovers,
    ),
    counter(
      'logx_agent_cluster_degraded_sends_total',
      'Notifications sent without a claim while Redis was out of reach (possible duplicates)',
      s.degradedSends,
    ),
    counter(
      'logx_agent_cluster_merged_total',
      'Notifications sent while Redis was out of reach, written to the shared log on reconnect',
      s.merged,
    ),
    counter('logx_agent_cluster_degraded_total', 'Times Redis went out of reach', s.degradedEpisodes),
    counter('logx_agent_cluster_reconnects_total', 'Reconnections to Redis', s.reconnects),
  ]
}
