// The User-Agent names logx and its version. The version is read from package.json at run time
// (walking up from this file) so the same code works from agent/ under vitest and from dist/.

import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

let cached: string | undefined

export function logxVersion(): string {
  if (cached !== undefined) return cached
  cached = '0.0.0'
  let dir = __dirname
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown }
      if (pkg.name === 'logx' && typeof pkg.version === 'string') {
        cached = pkg.version
        break
      }
    } catch {
      // no package.json at this level: keep walking up
    }
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return cached
}

export function userAgent(): string {
  return `logx/${logxVersion()}`
}
