// From notices to deliveries: Alertmanager's order, inhibition -> silences -> route (one notice per
// channel) -> budget, then whom each channel's copy reaches now (active hours, schedules) and the
// rendered message. The engine (engine.ts) hands it every notice its incident table makes.
import { peoplePaged } from './acknowledgement'
import { createBudgetStage, type BudgetStats } from './budget'
import type { Channel, ChannelType } from './channels'
import { createInhibitStage } from './inhibit-stage'
import { createInhibitor, type InhibitRule } from './inhibition'
import type { IncidentTable } from './incidents'
import type { Notice } from './notice'
import { createReach } from './reach'
import { renderMessage, scrubSecrets, type RenderedMessage, type RenderOptions } from './render'
import { createRouteStage } from './route'
import type { Rule } from './rule'
import type { ScheduleConfig } from './schedule'
import type { SilenceSet } from './silences'
import { sequence, type Stage } from './stage'

export interface Delivery {
  notice: Notice & { channel: string }
  channelType: ChannelType
  message: RenderedMessage
}

export interface NotifyPathParts {
  channels: readonly Channel[]
  rules: ReadonlyMap<string, Rule>
  incidents: IncidentTable
  silences: SilenceSet
  /** Usable secrets: cut out of every rendered message. */
  secrets: readonly string[]
  inhibit: readonly InhibitRule[] | undefined
  schedules: readonly ScheduleConfig[] | undefined
  rendering: RenderOptions
}

export interface NotifyPath {
  /** What to send now of `notices` (none: only the digests the budget owes). */
  deliver(now: number, notices: Notice[]): Delivery[]
  /** deliver(), and every digest the budget still holds (shutdown). */
  drain(now: number, notices: Notice[]): Delivery[]
  stats(): BudgetStats & { inhibited: number; deliveries: number }
}

export function createNotifyPath(parts: NotifyPathParts): NotifyPath {
  const { channels, incidents } = parts
  const byName = new Map(channels.map((c) => [c.name, c]))
  const budget = createBudgetStage(Object.fromEntries(channels.map((c) => [c.name, c.maxPerHour])))
  let inhibited = 0
  let deliveries = 0
  const route = createRouteStage(
    channels.map((c) => c.name),
    channels.filter((c) => c.type === 'incident').map((c) => c.name),
  )
  const muting: Stage[] =
    parts.inhibit === undefined || parts.inhibit.length === 0
      ? []
      : [
          createInhibitStage(
            createInhibitor(parts.inhibit),
            () => incidents.list().filter((i) => i.status !== 'pending'),
            () => inhibited++,
          ),
        ]
  const notify: Stage = sequence(...muting, parts.silences.stage, route, budget.stage)
  const release: Stage = sequence(notify, budget.release)
  const reach = createReach(parts.rules, parts.schedules ?? [])

  function delivered(now: number, routed: readonly Notice[]): Delivery[] {
    const out: Delivery[] = []
    for (const routedNotice of routed) {
      const channel = routedNotice.channel === undefined ? undefined : byName.get(routedNotice.channel)
      if (channel === undefined) continue
      // Active hours and on-call schedules: whom this channel's copy reaches, now.
      const notice = reach(routedNotice, channel, now)
      if (notice === undefined) continue
      // Only what came out of silences and budget reached anyone: a missed call may acknowledge it.
      const paged = peoplePaged(notice, channel)
      if (paged.length > 0) incidents.paged(notice.incident.key, paged, now)
      out.push({
        notice: notice as Notice & { channel: string },
        channelType: channel.type,
        message: scrubSecrets(renderMessage(channel, notice, parts.rendering), parts.secrets),
      })
    }
    deliveries += out.length
    return out
  }

  return {
    // Most selected lines change an incident without a notice: of the stages, only the budget has
    // anything to say then (digests it owes), and silences and routes need not run.
    deliver: (now, notices) =>
      delivered(now, notices.length === 0 ? budget.stage({ now }, notices) : notify({ now }, notices)),
    drain: (now, notices) => delivered(now, release({ now }, notices)),
    stats: () => ({ ...budget.stats(), inhibited, deliveries }),
  }
}
