// The one way a test gets a scratch directory: its own, removed when the test ends.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/**
 * A new directory under the OS temp directory, `logx-<name>-XXXXXX`, removed with all it holds when
 * the running test finishes, passed or failed (after its afterEach hooks, so whatever they close is
 * closed first). Call it inside a test.
 */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `logx-${name}-`))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
