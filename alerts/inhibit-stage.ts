// Inhibition as a stage: a page (firing, repeat, escalated, re-page) of an incident that an inhibit
// rule mutes while its source incident fires becomes an `inhibited` notice for the trail only
// (channels []): the lead, the timeline and test-rule say which incident muted it, never silently.
import type { Inhibitor } from './inhibition'
import { PAGE_KINDS, type IncidentSnapshot, type Notice } from './notice'
import type { Stage } from './stage'

/** `sources()`: the open incidents, asked for only when a page could be muted. */
export function createInhibitStage(
  inhibitor: Inhibitor,
  sources: () => IncidentSnapshot[],
  onMuted: () => void,
): Stage {
  return (_ctx, notices) => {
    let open: IncidentSnapshot[] | undefined
    // Made on first use: the inhibitor looks at sources only for a notice some rule targets.
    const lazy: Iterable<IncidentSnapshot> = { [Symbol.iterator]: () => (open ??= sources())[Symbol.iterator]() }
    return notices.map((notice) => {
      if (!PAGE_KINDS.has(notice.kind)) return notice
      const by = inhibitor.mutedBy(notice.incident, lazy)
      if (by === undefined) return notice
      onMuted()
      const { people: _people, ...rest } = notice
      return { ...rest, kind: 'inhibited', channels: [], inhibitedBy: { key: by.key, rule: by.rule, title: by.title } }
    })
  }
}
