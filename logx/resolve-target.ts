// Turns what a user wrote in `target` into a file the worker can import, in the main thread, the
// way pino does: a name that cannot be resolved throws at the call with pino's message; a path is
// taken as given, and a file that is missing or is not a target is reported by the worker as an
// 'error' event on the stream.

import { isAbsolute, join } from 'node:path'
import { LogxError, LogxErrorCodes } from './errors.js'
import { builtinTargetPath, packageTargetPath } from './targets.js'

/**
 * The file a bundler recipe put in place of `name` (a target name, `logx-worker` or
 * `thread-stream-worker`), or undefined. Read at each call: the recipe sets it when the bundle starts.
 */
export function bundlerOverride(name: string): string | undefined {
  // Set by a bundler recipe (logx/esbuild, or pino's plugins): name -> file beside the bundle.
  const overrides = (globalThis as { __bundlerPathsOverrides?: unknown }).__bundlerPathsOverrides
  if (overrides === null || typeof overrides !== 'object' || !Object.hasOwn(overrides, name)) return undefined
  const file = (overrides as Record<string, unknown>)[name]
  return typeof file === 'string' && file.length > 0 ? file : undefined
}

/** A require() as `file` has it; node:module is loaded only when a transport names a module (0.2 MB). */
function requireFrom(file: string): NodeJS.Require {
  return (require('node:module') as typeof import('node:module')).createRequire(file)
}

function isPath(target: string): boolean {
  return target.startsWith('file://') || isAbsolute(target)
}

/**
 * Resolves `target` to an absolute file path or a file:// URL.
 * Order: a bundler override, logx's own `logx/file`, an absolute path or file:// URL as given, then
 * a module name or relative path resolved from each caller file in turn (the first that resolves
 * wins), then a target this package exports as `logx/targets/<name>`.
 */
export function resolveTarget(target: unknown, callers: readonly string[], path = 'target'): string {
  if (typeof target !== 'string' || target.length === 0) {
    throw new LogxError(LogxErrorCodes.INVALID_TRANSPORT, `${path} must be a non-empty string`, path)
  }
  const overridden = bundlerOverride(target)
  if (overridden !== undefined) return overridden
  const builtin = builtinTargetPath(target)
  if (builtin !== undefined) return builtin
  if (isPath(target)) return target

  // With no usable caller (a REPL, eval, a bundle), resolve from the working directory like Node does.
  const anchors = callers.length > 0 ? callers : [join(process.cwd(), 'noop.js')]
  for (const anchor of anchors) {
    try {
      return requireFrom(anchor).resolve(target)
    } catch {
      // Not visible from this file; try the next caller up the stack.
    }
  }
  const exported = packageTargetPath(target)
  if (exported !== undefined) return exported
  throw new LogxError(
    LogxErrorCodes.TRANSPORT_TARGET_NOT_FOUND,
    `unable to determine transport target for "${target}"`,
    path,
  )
}
