// A source's streams, by the key the tailer gives a batch's line stream (a file generation, and
// the copy that continues it after copy-and-truncate). An event is ended by the line that starts
// the next one, or:
// 1. when a later generation of the same file is read: copy-and-truncate ended the stream (its
//    copy, which the tailer reads first, carried it to its end);
// 2. when another file is read at the path its file had: rename-and-create (the tailer reads the
//    rest of a renamed file before the new file at its path);
// 3. when its stream has been quiet for the timeout: the last event of a quiet file, or of a file
//    renamed away and finished, or deleted.
// 4. Never by the timeout while a batch of its stream is handed over in slices (event-slices.ts):
//    ending it would commit its last batch whole, lines not read yet included; its deadline then
//    counts from its last slice.
// A stream with nothing open is dropped once quiet as well: all it held was its mode, and the
// lines after a pause that long start anew. No clock here: `now` is an argument.
import { createEventStream, holds, type EventStream } from './event-stream'

export interface EventStreams {
  /**
   * The stream `key` (created on first use) of a batch of the followed file `followId`'s
   * `generation` read at `path`; `ended` gets each stream this batch ends (rules 1 and 2), removed.
   */
  streamOf(
    key: string,
    followId: number,
    generation: number,
    path: string | undefined,
    ended: (stream: EventStream) => void,
  ): EventStream
  /**
   * Removes and returns the streams quiet since `now - timeoutMs` (open events first among them to end),
   * but `busy` (rule 4).
   */
  takeQuiet(now: number, busy?: EventStream): EventStream[]
  /** When the earliest stream but `busy` holding something (an open event, a part of a line) times out (epoch ms). */
  nextDeadline(busy?: EventStream): number | undefined
  /** Every stream, removed (the source stops). */
  takeAll(): EventStream[]
}

interface Entry {
  key: string
  generation: number
}

export function createEventStreams(timeoutMs: number): EventStreams {
  const streams = new Map<string, EventStream>()
  /** The latest stream of each followed file (by followId, not inode: a new file may have a dead one's). */
  const latest = new Map<number, Entry>()

  return {
    streamOf(key, followId, generation, path, ended) {
      let stream = streams.get(key)
      if (stream !== undefined) {
        if (path !== undefined) stream.path = path
        return stream
      }
      const previous = latest.get(followId)
      if (previous !== undefined && previous.generation < generation) {
        const old = streams.get(previous.key)
        streams.delete(previous.key)
        if (old !== undefined) ended(old)
      }
      if (path !== undefined) {
        for (const [otherKey, other] of streams) {
          if (other.path !== path) continue
          streams.delete(otherKey)
          ended(other)
        }
      }
      if (previous === undefined || previous.generation <= generation) latest.set(followId, { key, generation })
      stream = createEventStream()
      stream.path = path
      streams.set(key, stream)
      return stream
    },
    takeQuiet(now, busy) {
      const quiet: EventStream[] = []
      for (const [key, stream] of streams) {
        if (stream.lastAt + timeoutMs > now || stream === busy) continue
        streams.delete(key)
        quiet.push(stream)
      }
      for (const [followId, entry] of latest) if (!streams.has(entry.key)) latest.delete(followId)
      return quiet
    },
    nextDeadline(busy) {
      let earliest: number | undefined
      for (const stream of streams.values()) {
        if (!holds(stream) || stream === busy) continue
        const deadline = stream.lastAt + timeoutMs
        if (earliest === undefined || deadline < earliest) earliest = deadline
      }
      return earliest
    },
    takeAll() {
      const all = [...streams.values()]
      streams.clear()
      latest.clear()
      return all
    },
  }
}
