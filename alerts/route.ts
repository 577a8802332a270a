// Fan-out: one notice per channel it is meant for. Unknown channel names are ignored here (a
// target that hosts only its own channel sees the others' names in shared rules). Recording
// channels (`incident`) receive every notice whatever the step names: the trail is complete.
import type { Notice } from './notice'
import type { Stage } from './stage'

export function createRouteStage(channelNames: readonly string[], recordingChannels: readonly string[] = []): Stage {
  const known = new Set(channelNames)
  return (_ctx, notices) => {
    const out: Notice[] = []
    for (const notice of notices) {
      const targets = new Set((notice.channels ?? channelNames).filter((c) => known.has(c)))
      for (const channel of recordingChannels) targets.add(channel)
      for (const channel of targets) out.push({ ...notice, channel })
    }
    return out
  }
}
