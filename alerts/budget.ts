// Per-channel budget: at most `maxPerHour` notices in any sliding hour. Over budget a notice is not
// dropped but folded: once the budget allows again, one digest says how many were suppressed and
// which incident came last.
import type { Notice } from './notice'
import type { Stage } from './stage'

const HOUR = 3_600_000

export interface BudgetStats {
  suppressed: number
  digests: number
}

interface ChannelBudget {
  max: number
  sent: number[]
  pending: number
  latest: Notice | undefined
}

export interface BudgetStage {
  stage: Stage
  /** Shutdown: every owed digest now, budget or not (one message over beats a silent loss). */
  release: Stage
  stats(): BudgetStats
}

/** `limits`: channel name -> max notices per hour; channels not listed are unlimited. */
export function createBudgetStage(limits: Readonly<Record<string, number | undefined>>): BudgetStage {
  const budgets = new Map<string, ChannelBudget>()
  for (const [channel, max] of Object.entries(limits)) {
    if (max !== undefined) budgets.set(channel, { max, sent: [], pending: 0, latest: undefined })
  }
  let suppressed = 0
  let digests = 0

  function hasRoom(b: ChannelBudget, now: number): boolean {
    while (b.sent.length > 0 && (b.sent[0] as number) <= now - HOUR) b.sent.shift()
    return b.sent.length < b.max
  }

  function owedDigests(now: number, force: boolean): Notice[] {
    const out: Notice[] = []
    for (const [channel, b] of budgets) {
      if (b.pending > 0 && b.latest !== undefined && (force || hasRoom(b, now))) {
        b.sent.push(now)
        out.push({ ...b.latest, kind: 'digest', at: now, channel, suppressed: b.pending, newCount: b.pending })
        digests++
        b.pending = 0
        b.latest = undefined
      }
    }
    return out
  }

  const stage: Stage = (ctx, notices) => {
    const out = owedDigests(ctx.now, false)
    for (const notice of notices) {
      const b = notice.channel === undefined ? undefined : budgets.get(notice.channel)
      // An acknowledgement pages nobody (it goes to the recording channels, the trail): not counted, never folded.
      if (b === undefined || notice.kind === 'acknowledged') {
        out.push(notice)
      } else if (b.pending === 0 && hasRoom(b, ctx.now)) {
        b.sent.push(ctx.now)
        out.push(notice)
      } else {
        b.pending++
        b.latest = notice
        suppressed++
      }
    }
    return out
  }

  const release: Stage = (ctx, notices) => [...notices, ...owedDigests(ctx.now, true)]

  return { stage, release, stats: () => ({ suppressed, digests }) }
}
