// What a module loads is only visible in a process that has not loaded it already (the test runner
// has loaded most of Node's built-in modules). The script goes on stdin: `node -e` loads node:crypto.
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { requireBuild } from './build'

/**
 * Runs `lines` (CommonJS, from the repository root, so `./dist/...` resolves) in a Node process of its
 * own; parses its stdout as JSON. The lines load dist/, so the build must be current.
 */
export function inFreshProcess<T>(lines: readonly string[]): T {
  requireBuild()
  const out = execFileSync(process.execPath, ['-'], {
    cwd: resolve(__dirname, '..', '..'),
    encoding: 'utf8',
    input: lines.join('\n'),
  })
  return JSON.parse(out) as T
}
