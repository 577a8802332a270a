// The notification log's announcements: the sent script publishes every mark on `<P>sent` with the
// notice's name (noticeIdOf), and each agent listens on a connection of its own, so an item it found
// held by another agent is looked at again (and dropped) the moment that agent marks it sent, instead
// of after its wait (agent/delivery/fleet/fleet-claims.ts). Best effort, as pub/sub is: a message missed while the
// connection was down only leaves the item to its own wait.
import type { DeliveryLog } from '../delivery/types'
import type { Keys } from './keys'
import type { RedisClientLike, RedisLink } from './redis-connection'

export interface SentAnnouncements {
  onSent(handler: (noticeId: string) => void): void
  /** Connects and subscribes (the client subscribes again after each reconnect); never rejects. */
  start(): void
  /** Subscribed, and the connection is up. */
  listening(): boolean
  close(): void
}

export function createSentAnnouncements(link: RedisLink, keys: Keys, log: DeliveryLog): SentAnnouncements {
  const handlers: ((noticeId: string) => void)[] = []
  let client: RedisClientLike | undefined
  let subscribed = false
  let closed = false

  function announce(message: string): void {
    for (const handler of handlers) {
      try {
        handler(message)
      } catch (err) {
        log.error({ err: (err as Error).message }, 'cluster: a sent-mark handler failed')
      }
    }
  }

  return {
    onSent(handler) {
      handlers.push(handler)
    },
    start() {
      if (client !== undefined || closed) return
      const subscriber = link.duplicate('sent')
      client = subscriber
      subscriber.on('error', () => undefined)
      subscriber
        .connect()
        .then(() => subscriber.SUBSCRIBE(keys.sent, announce))
        .then(() => {
          subscribed = true
        })
        .catch((err: unknown) => {
          if (!closed)
            log.warn(
              { err: (err as Error).message },
              'cluster: cannot listen for sent marks; ' +
                'a notification another agent holds is looked at again on its own schedule',
            )
        })
    },
    listening: () => subscribed && client?.isReady === true,
    close() {
      closed = true
      try {
        client?.destroy()
      } catch {
        // Already closed.
      }
    },
  }
}
