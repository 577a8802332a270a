// The errors the browser build throws. Not the LogxError class (that would pull in the Node module
// graph), but the same brand, name and code, so `err instanceof LogxError` and matching on `code`
// behave the same in both builds.

import type { LogxErrorCode } from './errors.js'

const errorBrand = Symbol.for('logx.error')

export function logxError(code: LogxErrorCode, message: string, path?: string): Error {
  const error = new Error(message) as Error & { code: LogxErrorCode; path: string | undefined }
  error.name = 'LogxError'
  error.code = code
  error.path = path
  Object.defineProperty(error, errorBrand, { value: true })
  return error
}
