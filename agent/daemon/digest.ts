// The digest (`digest:`, issue #29): on its wall-clock schedule, one message per channel of
// `digest.notify` telling the period since the last one (new, top and regressed kinds, incidents and
// who acknowledged them). This file applies digest-plan.ts's answers: it keeps what the last digest
// covered in `<state_dir>/digest.json` (digest-state.ts), reads the kinds and incidents when one is
// due, and hands the deliveries to the alert path's dispatcher, which journals them in the outbox
// before it returns: from there they are retried, and sent after a crash, like every notice.
// The state is written after the outbox took the digest: a crash between the two sends that digest
// once more at the next start, never loses it. A timer waits for the next slot (at most `recheckMs`
// at a time, so a clock moved or a reload is seen); nothing is thrown out of it.
import { hostname } from 'node:os'
import { join } from 'node:path'
import { digestOf, type KindEntry } from '../../alerts/kinds'
import type { AlertPath } from '../acknowledge/with-actions'
import type { AgentConfig, DigestConfig } from '../config/types'
import type { DeliveryLog } from '../delivery/types'
import { digestIncidentsOf } from './digest-incidents'
import { digestDeliveries } from './digest-messages'
import { planDigest, type DigestSchedule } from './digest-plan'
import { DIGEST_STATE_FILE, readDigestState, writeDigestState, type DigestState } from './digest-state'

/** Longest a timer waits before planning again. */
export const DIGEST_RECHECK_MS = 3_600_000
/** After a failure (the outbox or the state file could not be written), the next try. */
export const DIGEST_RETRY_MS = 60_000

export interface DigestSenderOptions {
  /** The running config (a reload replaces it): `digest` and the channels are read from it. */
  config: () => AgentConfig
  stateDir: string
  path: Pick<AlertPath, 'pipeline' | 'dispatcher' | 'timeline'>
  /** The kind table's entries as the agent keeps them; [] when it keeps none. */
  kinds: () => readonly KindEntry[]
  log: DeliveryLog
  now: () => number
  host?: string | undefined
  recheckMs?: number | undefined
}

export interface DigestSenderStats {
  sent: number
  failed: number
  /** When the next digest is due; undefined: no digest configured (or not planned yet). */
  nextAt: number | undefined
  /** The end of the period the last digest covered. */
  covered: number | undefined
}

export interface DigestSender {
  /** Plans again now: at start and after a reload (a digest owed goes out at once). */
  apply(): void
  stats(): DigestSenderStats
  stop(): void
}

const scheduleOf = (digest: DigestConfig): DigestSchedule => ({
  everyMs: digest.everyMs,
  at: digest.at,
  timeZone: digest.timeZone,
})

export function createDigestSender(options: DigestSenderOptions): DigestSender {
  const { log, now, path } = options
  const file = join(options.stateDir, DIGEST_STATE_FILE)
  const host = options.host ?? hostname()
  const recheckMs = options.recheckMs ?? DIGEST_RECHECK_MS
  let state: DigestState | undefined
  let loaded = false
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const counts = { sent: 0, failed: 0 }
  let nextAt: number | undefined

  /** In memory first: a state file that cannot be written must not make the digest go out again and again. */
  function remember(next: DigestState): void {
    state = next
    writeDigestState(file, next)
  }

  function send(digest: DigestConfig, from: number, to: number): void {
    const config = options.config()
    const kinds = options.kinds()
    const incidents = digestIncidentsOf(path.pipeline.incidents(), kinds, (key) => path.timeline.of(key), from)
    const told = digestOf(kinds, incidents, { from, to })
    const deliveries = digestDeliveries(
      told,
      { timeZone: digest.timeZone, host },
      {
        notify: digest.notify,
        channels: config.channels,
        schedules: config.schedules,
        secrets: config.secrets.map((s) => s.reveal()),
      },
    )
    path.dispatcher.dispatch(deliveries, new Set())
    counts.sent++
    const channels = deliveries.map((d) => d.notice.channel)
    log.info({ from, to, channels, kinds: told.totals.kinds, events: told.totals.events }, 'digest sent')
  }

  function wait(ms: number): void {
    timer = setTimeout(run, Math.max(0, Math.min(ms, recheckMs)))
    timer.unref()
  }

  /** Plans and does what the plan says until it says wait (rule 2 sends at most one digest). */
  function step(digest: DigestConfig): void {
    if (!loaded) {
      state = readDigestState(file)
      loaded = true
    }
    for (let round = 0; round < 3; round++) {
      const at = now()
      const plan = planDigest(scheduleOf(digest), state?.covered, at)
      if (plan.kind === 'wait') {
        nextAt = plan.until
        wait(plan.until - at)
        return
      }
      if (plan.kind === 'begin') remember({ covered: plan.covered, sentAt: state?.sentAt })
      else {
        send(digest, plan.from, plan.to)
        remember({ covered: plan.to, sentAt: at })
      }
    }
    wait(recheckMs)
  }

  function run(): void {
    timer = undefined
    if (stopped) return
    const digest = options.config().digest
    nextAt = undefined
    if (digest === undefined) return
    try {
      step(digest)
    } catch (err) {
      counts.failed++
      log.error({ err }, `digest failed, trying again in ${DIGEST_RETRY_MS / 1000}s: ${(err as Error).message}`)
      wait(DIGEST_RETRY_MS)
    }
  }

  return {
    apply() {
      if (timer !== undefined) clearTimeout(timer)
      run()
    },
    stats: () => ({ ...counts, nextAt, covered: state?.covered }),
    stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    },
  }
}
