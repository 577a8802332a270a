// A dispatcher that sends nothing and keeps what it was asked to send, for tests of the pipeline
// and of what runs on it.
import type { Delivery } from '../../../alerts'
import type { Dispatcher } from '../../../agent/delivery/types'

export function createRecordingDispatcher(sent: Delivery[]): Dispatcher {
  return {
    dispatch: (deliveries) => void sent.push(...deliveries),
    setChannels() {},
    setRules() {},
    closeLead() {},
    stats: () => ({ sent: {}, failed: {}, retried: 0, dead: 0, depth: 0 }),
    queuedPages: () => [],
    sync: () => {},
    syncAsync: () => Promise.resolve(),
    drain: async () => ({ drained: true, pending: 0 }),
    close: async () => {},
  }
}
