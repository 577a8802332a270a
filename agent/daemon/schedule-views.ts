// Who is on call, as the console and `logx-agent oncall` show it: for each schedule and each of its
// layers, who holds it at a moment, until when, and the next changes. Pure: the schedules and the
// moment are arguments; the arithmetic is alerts/schedule.ts's (onCallAt, handoffs).
import { handoffs, onCallAt, type ScheduleConfig } from '../../alerts'
import type { LayerView, ScheduleView } from './console/types'

/** How many handoffs ahead the console shows, and `oncall` prints unless --handoffs says otherwise. */
export const DEFAULT_HANDOFFS = 3

function layerView(
  schedule: ScheduleConfig,
  layer: ScheduleConfig['layers'][number],
  at: number,
  count: number,
): LayerView {
  const holder = onCallAt(schedule, layer.name, at)
  return {
    name: layer.name,
    timeZone: layer.timeZone,
    // A layer whose one user never hands over has no end: null, not Infinity (JSON has no Infinity).
    now:
      holder === undefined
        ? null
        : { user: holder.user, until: Number.isFinite(holder.until) ? holder.until : null, override: holder.override },
    next:
      count === 0
        ? []
        : handoffs(schedule, layer.name, at, count).map((h) => ({ at: h.at, user: h.user, override: h.override })),
  }
}

export function scheduleViews(
  schedules: readonly ScheduleConfig[],
  at: number,
  count: number = DEFAULT_HANDOFFS,
): ScheduleView[] {
  return schedules.map((schedule) => ({
    name: schedule.name,
    timeZone: schedule.timeZone,
    layers: schedule.layers.map((layer) => layerView(schedule, layer, at, count)),
  }))
}
