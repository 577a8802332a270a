// Whom one channel's copy of a notice reaches, decided when it is sent: nobody when the channel is
// outside its active hours, or when the notice's escalation step is (a repeat at night of a step
// meant for office hours); the person on call when the channel or the step names a schedule (the
// step's first), in place of fixed recipients; otherwise the notice as it is.
import { isActive } from './active-hours'
import type { Channel } from './channels'
import { PAGE_KINDS, type Notice } from './notice'
import type { Rule } from './rule'
import { onCallAt, type OncallRef, type ScheduleConfig } from './schedule'

export type Reach = (notice: Notice, channel: Channel, now: number) => Notice | undefined

export function createReach(rules: ReadonlyMap<string, Rule>, schedules: readonly ScheduleConfig[]): Reach {
  const byName = new Map(schedules.map((s) => [s.name, s]))

  function onCall(ref: OncallRef, notice: Notice, now: number): Notice | undefined {
    const schedule = byName.get(ref.schedule)
    const who = schedule === undefined ? undefined : onCallAt(schedule, ref.layer, now)
    if (who === undefined) return undefined
    return { ...notice, people: [who.user], oncall: [{ schedule: ref.schedule, layer: who.layer, user: who.user }] }
  }

  return (notice, channel, now) => {
    // The trail (the recording channel) hears of everything, whenever it happens.
    if (channel.type === 'incident') return notice
    if (!isActive(channel.activeHours, now)) return undefined
    const step = PAGE_KINDS.has(notice.kind)
      ? rules.get(notice.incident.rule)?.escalation[notice.incident.step]
      : undefined
    if (step !== undefined && !isActive(step.activeHours, now)) return undefined
    const ref = step?.oncall ?? channel.oncall
    return ref === undefined ? notice : onCall(ref, notice, now)
  }
}
