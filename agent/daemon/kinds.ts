// The agent's kinds (issue #29): one miner and one kind table per agent, kept in
// `<state_dir>/kinds.jsonl` (agent/kinds), handed to every engine the agent makes (a reload's too, so
// a reload forgets no kind), written every few seconds and at stop, read by the console and the
// digest (`entries()`), counted in /metrics, and shared with a fleet when `cluster:` is set.
// Nothing is opened, mined or written while no rule is on kinds and no digest lists them: the first
// config with either (at start or at a reload) opens the file, and a first start learns from then.
// With a digest and no kind rule, the lines some rule selects are mined.
import { join } from 'node:path'
import { createKindMiner, createKindTable } from '../../alerts/kinds'
import type { KindEntry } from '../../alerts/kinds/types'
import type { FleetKinds } from '../cluster/types'
import type { AgentConfig } from '../config/types'
import type { AlertSetup } from '../delivery/types'
import { keepKinds, type KeptKinds } from '../kinds/kept-kinds'
import { openKindStore } from '../kinds'
import type { KindStore } from '../kinds/types'
import type { AgentLogger } from './logger'
import type { Metric } from './metrics-server'

/** How often the counts that moved are written (and what a fleet learned merged). */
export const KINDS_FLUSH_MS = 5000

export interface AgentKinds {
  /** `setup` with the agent's one miner and table in it, when a rule of `config` is on kinds. */
  setupWith(setup: AlertSetup, config: AgentConfig): AlertSetup
  /** Every kind the table holds (copies), least recently seen first; none before a rule on kinds. */
  entries(): KindEntry[]
  /** Counts that moved to disk (the timer's every KINDS_FLUSH_MS, and stop's). */
  flush(): void
  /** fsyncs the kinds appended, before a checkpoint commits the lines behind them. */
  sync(): void
  metrics(): Metric[]
  /** Joins a fleet: new kinds are claimed, counts exchanged at each flush. */
  joinFleet(link: FleetKinds): void
  /** Last flush, then the file closed. */
  stop(): void
}

export interface AgentKindsOptions {
  stateDir: string
  host: string
  log: AgentLogger
  now: () => number
  /** Kinds per source and how long a first start learns (`kinds:`). */
  settings: (config: AgentConfig) => { max: number; learnMs: number }
}

/** `kinds.max` and `kinds.learn` of a config, in ms. */
export function kindsSettingsOf(config: AgentConfig): { max: number; learnMs: number } {
  return { max: config.kinds?.max ?? 10_000, learnMs: config.kinds?.learnMs ?? 3_600_000 }
}

const hasKindRule = (config: AgentConfig): boolean => config.rules.some((rule) => rule.kinds !== undefined)
/** The digest lists kinds: with `digest:` and no kind rule, the lines rules select are mined for it. */
const keepsKinds = (config: AgentConfig): boolean => hasKindRule(config) || config.digest !== undefined

export function createAgentKinds(options: AgentKindsOptions): AgentKinds {
  const { log, now } = options
  let store: KindStore | undefined
  let kept: KeptKinds | undefined
  let fleet: FleetKinds | undefined
  // Said once per run of failing writes (a full disk must not flood the log with a line per kind).
  let failing = false
  let failedNow = false
  let exchanging = false
  let timer: NodeJS.Timeout | undefined

  const onError = (err: unknown): void => {
    failedNow = true
    if (failing) return
    failing = true
    log.error({ err }, `kinds: ${(err as Error).message}; kinds go on in memory, the file is written again next flush`)
  }

  function open(config: AgentConfig): KeptKinds {
    const { max, learnMs } = options.settings(config)
    store = openKindStore({ file: join(options.stateDir, 'kinds.jsonl'), now: now() })
    if (store.damaged) log.warn({ learnMs }, 'kinds: the kinds file was damaged; kinds met again are learned, not new')
    const table = createKindTable({ max, learnMs, learnFrom: store.learningSince })
    const miner = createKindMiner({ max })
    kept = keepKinds({ store, table, miner, onError, onNew: (entry) => fleet?.claim(entry) })
    if (fleet !== undefined) kept.shareCounts()
    timer = setInterval(flush, KINDS_FLUSH_MS)
    timer.unref()
    return kept
  }

  function sync(): void {
    try {
      store?.fsync()
    } catch (err) {
      onError(err)
    }
  }

  function flush(): void {
    if (kept === undefined) return
    if (fleet !== undefined && store !== undefined && !exchanging) {
      exchanging = true
      void fleet.exchange(kept, store, now()).finally(() => {
        exchanging = false
      })
    }
    failedNow = false
    kept.flush()
    // What was appended since (new kinds, counts) reaches the disk, not only the page cache.
    sync()
    if (!failedNow) failing = false
  }

  return {
    setupWith(setup, config) {
      if (!keepsKinds(config)) return setup
      const agentKinds = kept ?? open(config)
      const { max, learnMs } = options.settings(config)
      const { miner, table } = agentKinds
      const kinds = { max, learnMs, host: options.host, miner, table, mineSelected: !hasKindRule(config) }
      return { ...setup, kinds }
    },
    entries: () => kept?.entries() ?? [],
    flush,
    sync,
    metrics: () => (kept === undefined ? [] : kindMetrics(kept, fleet)),
    joinFleet(link) {
      fleet = link
      kept?.shareCounts()
    },
    stop() {
      if (timer !== undefined) clearInterval(timer)
      kept?.flush()
      store?.close()
    },
  }
}

function fleetKindMetrics(fleet: FleetKinds): Metric[] {
  const { claims, published, merged } = fleet.stats()
  return [
    {
      name: 'logx_agent_kinds_fleet_claims_total',
      help: 'Kinds this agent met first, claimed on Redis: won (new to the fleet), known (another had it), degraded',
      type: 'counter',
      samples: Object.entries(claims).map(([outcome, value]) => ({ labels: { outcome }, value })),
    },
    {
      name: 'logx_agent_kinds_fleet_deltas_total',
      help: "Kind counts exchanged with the fleet: published (this agent's) and merged (the others')",
      type: 'counter',
      samples: [
        { labels: { direction: 'published' }, value: published },
        { labels: { direction: 'merged' }, value: merged },
      ],
    },
  ]
}

function kindMetrics(kept: KeptKinds, fleet: FleetKinds | undefined): Metric[] {
  const stats = kept.stats()
  const bySource = [...stats.bySource].sort(([a], [b]) => a.localeCompare(b))
  return [
    {
      name: 'logx_agent_kinds',
      help: 'Kinds the kind table holds, by source (as of the last write of kinds.jsonl)',
      type: 'gauge',
      samples:
        bySource.length === 0 ? [{ value: 0 }] : bySource.map(([source, value]) => ({ labels: { source }, value })),
    },
    {
      name: 'logx_agent_kinds_new_total',
      help: 'Kinds met for the first time by this agent since it started (learned ones included)',
      type: 'counter',
      samples: [{ value: stats.created }],
    },
    {
      name: 'logx_agent_kinds_evicted_total',
      help: 'Kinds dropped (least recently seen first) because kinds.max were held for their source',
      type: 'counter',
      samples: [{ value: stats.evicted }],
    },
    ...(fleet === undefined ? [] : fleetKindMetrics(fleet)),
  ]
}
