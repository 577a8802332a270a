// Server-sent events for the inbox: one `record` event per stored inbox record or missed call,
// `reset` on reset.

import type { IncomingMessage, ServerResponse } from 'node:http'
import { INBOX_KINDS, type StoredKind } from './stored-kinds'
import type { Store, StoredEntry } from './types'

export interface LiveEvents {
  attach(req: IncomingMessage, res: ServerResponse): void
  /** Ends every open stream (server shutdown). */
  closeAll(): void
  readonly clients: number
}

/** What the inbox shows: what clients sent, and the missed calls (the inbox simulates them too). */
export const LIVE_KINDS: readonly StoredKind[] = [...INBOX_KINDS, 'missed']

export function isLiveEntry(entry: StoredEntry): boolean {
  return LIVE_KINDS.includes(entry.kind)
}

/** One item of the feed, as `/_sandbox/records` lists it and a `record` event carries it. */
export function toFeedItem(entry: StoredEntry): { seq: number; kind: StoredKind; record: Record<string, unknown> } {
  return { seq: entry.seq, kind: entry.kind, record: entry.record }
}

const HEARTBEAT_MS = 15_000

export function createLiveEvents(store: Store): LiveEvents {
  const streams = new Set<ServerResponse>()

  store.subscribe((event) => {
    let frame: string
    if (event.type === 'reset') frame = 'event: reset\ndata: {}\n\n'
    else if (isLiveEntry(event.entry)) frame = `event: record\ndata: ${JSON.stringify(toFeedItem(event.entry))}\n\n`
    else return
    for (const res of streams) res.write(frame)
  })

  // Keeps proxies and idle timeouts from cutting a quiet stream; unref so it never holds the process.
  const heartbeat = setInterval(() => {
    for (const res of streams) res.write(': keep-alive\n\n')
  }, HEARTBEAT_MS)
  heartbeat.unref()

  return {
    attach(req, res) {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      })
      // The first frame tells the page the stream is live (tests wait on it instead of sleeping).
      res.write('event: ready\ndata: {}\n\n')
      streams.add(res)
      req.on('close', () => streams.delete(res))
    },
    closeAll() {
      clearInterval(heartbeat)
      for (const res of streams) res.end()
      streams.clear()
    },
    get clients() {
      return streams.size
    },
  }
}
