// Loads a transport target inside the worker. A target is a plain module whose default export is
// `async (options) => stream`; CommonJS, ESM and transpiled ESM (which nests `default` once more)
// all arrive here as a module namespace, so up to two `default` levels are unwrapped.

import { pathToFileURL } from 'node:url'
import { LogxError, LogxErrorCodes } from './errors.js'

export type TargetFactory = (options: unknown) => unknown

export async function loadTargetFactory(file: string, name: string): Promise<TargetFactory> {
  const url = file.startsWith('file://') ? file : pathToFileURL(file).href
  let exported: unknown
  try {
    exported = await import(url)
  } catch (err) {
    throw new LogxError(
      LogxErrorCodes.TRANSPORT_TARGET_NOT_FOUND,
      `transport target "${name}" could not be loaded${name === file ? '' : ` from ${file}`}: ` +
        `${(err as Error)?.message ?? String(err)}`,
      undefined,
      { cause: err },
    )
  }
  for (let depth = 0; depth < 2 && typeof exported === 'object' && exported !== null; depth++) {
    exported = (exported as { default?: unknown }).default
  }
  if (typeof exported !== 'function') {
    throw new LogxError(
      LogxErrorCodes.INVALID_TRANSPORT,
      `transport target "${name}"${name === file ? '' : ` (${file})`} ` +
        `must have a default export (options) => stream, found ${typeof exported}`,
    )
  }
  return exported as TargetFactory
}
