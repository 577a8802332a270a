// The fast file destination: sonic-boom, made safe for logging (EPIPE ends output quietly,
// asynchronous destinations are flushed when the process exits).
import SonicBoom from 'sonic-boom'
import { fstatSync } from 'node:fs'
import { isMainThread } from './main-thread'
import { registerExitHandler, unregisterExitHandler, type ExitEvent } from './on-exit'

export interface DestinationOptions {
  /** File path or file descriptor; default 1 (standard output). */
  dest?: string | number
  /** Alias of dest, as sonic-boom spells it. */
  fd?: number | string
  /** Bytes buffered before a write; 0 writes every line at once. */
  minLength?: number
  /** Upper bound of the buffer; lines beyond it are dropped with a 'drop' event. */
  maxLength?: number
  /** Largest single write. */
  maxWrite?: number
  /** Synchronous writes: nothing is ever lost, each line costs a system call. */
  sync?: boolean
  /** fsync after each write (sync mode). */
  fsync?: boolean
  /** Append to the file (default) or truncate it. */
  append?: boolean
  /** Create the parent directory. */
  mkdir?: boolean
  /** File mode for a new file. */
  mode?: number | string
  /** Flush the buffer every N milliseconds. */
  periodicFlush?: number
}

export type DestinationStream = SonicBoom

/** A number, or a string that is an integer, is a file descriptor; anything else is a path. */
export function normalizeFileDescriptor(dest: unknown): unknown {
  if (dest === undefined || dest === null) return process.stdout.fd ?? 1
  if (typeof dest === 'string' && dest.trim() !== '' && Number.isInteger(Number(dest))) return Number(dest)
  return dest
}

function noop(): void {}

interface SonicBoomInternals {
  destroyed: boolean
  _bufs: string[]
  _len: number
  _hwm: number
  _writing: boolean
  sync: boolean
  fd: number
  minLength: number
  maxLength: number
  maxWrite: number
  _actualWrite(): void
  emit(event: string, data: unknown): boolean
}

/**
 * sonic-boom's own write() measures the whole pending chunk (Buffer.byteLength of a growing
 * concatenation, up to maxWrite bytes) on every call, which flattens it each time: quadratic in the
 * chunk, several microseconds per line once a write is in flight. This write keeps the byte length
 * of the chunk it last built and falls back to measuring whenever sonic-boom has moved its buffers.
 * The buffers and counters it leaves behind are exactly those sonic-boom's write would.
 */
function installIncrementalWrite(stream: SonicBoom): void {
  let lastChunk: string | undefined
  let lastChunkBytes = 0
  const state = stream as unknown as SonicBoomInternals
  ;(stream as unknown as { write: (data: string) => boolean }).write = function write(data: string): boolean {
    if (state.destroyed) throw new Error('SonicBoom destroyed')
    data = '' + data
    const dataBytes = Buffer.byteLength(data)
    const len = state._len + dataBytes
    if (state.maxLength && len > state.maxLength) {
      state.emit('drop', data)
      return state._len < state._hwm
    }
    const bufs = state._bufs
    const count = bufs.length
    let tailBytes = 0
    if (count > 0) {
      const tail = bufs[count - 1] as string
      tailBytes = tail === lastChunk ? lastChunkBytes : Buffer.byteLength(tail)
    }
    if (count === 0 || tailBytes + dataBytes > state.maxWrite) {
      bufs.push(data)
      lastChunk = data
      lastChunkBytes = dataBytes
    } else {
      const joined = (bufs[count - 1] as string) + data
      bufs[count - 1] = joined
      lastChunk = joined
      lastChunkBytes = tailBytes + dataBytes
    }
    state._len = len
    if (!state._writing && state._len >= state.minLength) state._actualWrite()
    return state._len < state._hwm
  }
}

/** Chunks (of up to maxWrite bytes, 16 KiB by default) written per event-loop turn. */
const CHUNKS_PER_TURN = 64

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile()
  } catch {
    return false
  }
}

/**
 * Asynchronous writes to a regular file, made after the current tick from this thread instead of
 * in libuv's thread pool. A write handed to the pool cannot be waited for or taken back, so a
 * flushSync() while one was in flight (fatal, process exit) wrote the later lines first and, when
 * the process died before the pool ran the write, lost the earlier ones. Here nothing is ever in
 * flight between ticks: flushSync() writes every pending line, in order. Writing to a file costs
 * the page cache, not a reader's pace; pipes, terminals and sockets keep the thread pool, where a
 * stalled reader cannot block the app. Batching is kept: lines of the same tick share one write.
 */
function installWriteBehind(stream: SonicBoom): void {
  const state = stream as unknown as SonicBoomInternals
  const writeNow = state._actualWrite
  let scheduled = false
  let running = false
  let again = false
  const run = (): void => {
    scheduled = false
    if (state.destroyed) return
    // sonic-boom's synchronous branch writes a chunk (looping over partial writes) and releases it;
    // the release asks for the next chunk through deferredWrite, which this loop then serves, up to
    // a bound per turn so a large backlog does not hold the event loop.
    state.sync = true
    running = true
    try {
      let chunks = 0
      do {
        again = false
        writeNow.call(stream)
      } while (again && ++chunks < CHUNKS_PER_TURN && !state.destroyed)
    } finally {
      running = false
      state.sync = false
    }
    if (again && !scheduled) {
      scheduled = true
      setImmediate(run)
    }
  }
  state._actualWrite = function deferredWrite(): void {
    // Claims the writer, so write() only buffers until the scheduled write runs.
    state._writing = true
    if (running) {
      again = true
      return
    }
    if (scheduled) return
    scheduled = true
    setImmediate(run)
  }
}

function flushOnExit(stream: SonicBoom, event: ExitEvent): void {
  if ((stream as unknown as { destroyed?: boolean }).destroyed) return
  if (event === 'beforeExit') {
    // The event loop still runs: flush asynchronously, then close so the process can end.
    stream.flush()
    stream.once('drain', () => stream.end())
  } else {
    stream.flushSync()
  }
}

/** Wraps sonic-boom with the guarantees a logger needs. */
export function createSafeDestination(
  options: DestinationOptions & { fd?: unknown; dest?: unknown },
): DestinationStream {
  // Open the file synchronously even for asynchronous writing: a line logged (or a fatal flushed,
  // or a process.exit) before an asynchronous open completes would otherwise be lost, and a bad
  // path fails here, at construction, instead of in a later 'error' event.
  const stream = new SonicBoom({ ...(options as ConstructorParameters<typeof SonicBoom>[0]), sync: true })
  ;(stream as unknown as { sync: boolean }).sync = options.sync === true
  if ((options as { contentMode?: string }).contentMode !== 'buffer') installIncrementalWrite(stream)
  if (options.sync !== true && isRegularFile((stream as unknown as SonicBoomInternals).fd)) installWriteBehind(stream)
  stream.on('error', onError)
  if (!options.sync && isMainThread()) {
    registerExitHandler(stream, flushOnExit)
    stream.on('close', () => unregisterExitHandler(stream))
  }
  return stream

  function onError(err: NodeJS.ErrnoException): void {
    if (err.code === 'EPIPE') {
      // The reader went away (e.g. `| head`): stop writing instead of crashing the app.
      const muted = stream as unknown as Record<string, unknown>
      muted.write = () => true
      muted.end = noop
      muted.flushSync = noop
      muted.destroy = noop
      return
    }
    stream.removeListener('error', onError)
    stream.emit('error', err)
  }
}

/**
 * `logx.destination([dest | options])`: a fast destination on a file path or descriptor.
 * A string or number is the destination itself, written without buffering.
 */
export function destination(dest?: string | number | DestinationOptions): DestinationStream {
  if (typeof dest === 'object' && dest !== null) {
    const options = { ...dest }
    options.dest = normalizeFileDescriptor(options.dest ?? options.fd) as string | number
    delete options.fd
    return createSafeDestination(options)
  }
  return createSafeDestination({ dest: normalizeFileDescriptor(dest) as string | number, minLength: 0 })
}
