// The built-in `logx/file` target: a fast file (or file descriptor) destination inside the worker.
// Writes are asynchronous here because the main thread is never waiting on them.

import { once } from 'node:events'
import { SonicBoom } from 'sonic-boom'
import { LogxError, LogxErrorCodes } from './errors.js'

export interface FileTargetOptions {
  /** File path or descriptor; a string of digits is a descriptor. Default 1 (standard output). */
  destination?: string | number
  /** Create the file's directory first. */
  mkdir?: boolean
  /** Append (default) or truncate when opening. */
  append?: boolean
  /** Other SonicBoom options (minLength, fsync, ...) pass through. */
  [option: string]: unknown
}

function toDest(destination: unknown): string | number {
  if (destination === undefined || destination === null) return 1
  if (typeof destination === 'number') return destination
  if (typeof destination === 'string') return /^\d+$/.test(destination) ? Number(destination) : destination
  throw new LogxError(
    LogxErrorCodes.INVALID_OPTION,
    `logx/file: destination must be a path or a file descriptor, got ${typeof destination}`,
    'options.destination',
  )
}

/**
 * The reader of a pipe went away (`node app | head`): drop what is left and what comes, as
 * logx.destination() does, instead of failing the transport (whose every later line would then be
 * an 'error' in the app). end() still closes the stream, so the worker ends normally.
 */
function quietOnEpipe(stream: SonicBoom): void {
  const emit = stream.emit.bind(stream)
  stream.emit = function emitUnlessEpipe(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error' && (args[0] as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') {
      const state = stream as unknown as { write: (data: string) => boolean; _bufs: unknown[]; _len: number }
      state.write = () => true
      state._bufs = []
      state._len = 0
      // A writer that met a full buffer waits for 'drain'; nothing is pending any more.
      process.nextTick(() => emit('drain'))
      return true
    }
    return emit(event, ...args)
  } as typeof stream.emit
}

export async function createFileTarget(options: FileTargetOptions = {}): Promise<SonicBoom> {
  const { destination, ...rest } = options
  const dest = toDest(destination)
  const stream = new SonicBoom({ ...rest, dest, sync: false })
  try {
    await once(stream, 'ready')
  } catch (err) {
    throw new LogxError(
      LogxErrorCodes.INVALID_OPTION,
      `logx/file: cannot open ${String(dest)}: ${(err as Error).message}`,
      'options.destination',
      { cause: err },
    )
  }
  quietOnEpipe(stream)
  return stream
}

export default createFileTarget
