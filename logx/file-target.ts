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
  return stream
}

export default createFileTarget
