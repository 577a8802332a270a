// Turns what a user wrote in `target` into a file the worker can import, in the main thread,
// so that a wrong name fails at `transport()` with an error naming it instead of inside a worker.

import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LogxError, LogxErrorCodes } from './errors.js'
import { builtinTargetPath } from './targets.js'

function notFound(target: string, detail: string, path: string): LogxError {
  return new LogxError(LogxErrorCodes.TRANSPORT_TARGET_NOT_FOUND, `transport target "${target}" ${detail}`, path)
}

/**
 * Resolves `target` to an absolute file path or a file:// URL.
 * Order: built-in name, absolute path, file:// URL, then a module name or relative path
 * resolved from each caller file in turn (the first that resolves wins).
 */
export function resolveTarget(target: unknown, callers: readonly string[], path = 'target'): string {
  if (typeof target !== 'string' || target.length === 0) {
    throw new LogxError(LogxErrorCodes.INVALID_TRANSPORT, `${path} must be a non-empty string`, path)
  }

  const builtin = builtinTargetPath(target)
  if (builtin !== undefined) {
    if (!existsSync(builtin)) throw notFound(target, `is built in but its file is missing: ${builtin}`, path)
    return builtin
  }

  if (target.startsWith('file://')) {
    let file: string
    try {
      file = fileURLToPath(target)
    } catch (err) {
      throw notFound(target, `is not a valid file URL: ${(err as Error).message}`, path)
    }
    if (!existsSync(file)) throw notFound(target, `does not exist: ${file}`, path)
    return target
  }

  if (isAbsolute(target)) {
    if (!existsSync(target)) throw notFound(target, `does not exist: ${target}`, path)
    return target
  }

  // With no usable caller (a REPL, eval), resolve from the working directory like Node does.
  const anchors = callers.length > 0 ? callers : [join(process.cwd(), 'noop.js')]
  for (const anchor of anchors) {
    try {
      return createRequire(anchor).resolve(target)
    } catch {
      // Not visible from this file; try the next caller up the stack.
    }
  }
  throw notFound(target, `could not be resolved from ${anchors.join(', ')}`, path)
}
