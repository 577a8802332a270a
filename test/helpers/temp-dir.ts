// The one way a test gets a scratch directory: its own, removed when the test (or the file) ends.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, onTestFinished } from 'vitest'

export interface TempDirOptions {
  /**
   * Where to make it (default the OS temp directory). A test whose script must resolve the project's own
   * `node_modules` (an ESM import of 'logx', a pino-pretty worker) passes the project root.
   */
  parent?: string
}

function make(name: string, options: TempDirOptions): string {
  const parent = options.parent ?? tmpdir()
  const prefix = options.parent === undefined ? `logx-${name}-` : `.tmp-${name}-`
  return mkdtempSync(join(parent, prefix))
}

const remove = (dir: string) => () => rmSync(dir, { recursive: true, force: true })

/**
 * A new directory `logx-<name>-XXXXXX`, removed with all it holds when the running test finishes,
 * passed or failed (after its afterEach hooks, so whatever they close is closed first). Call it inside a
 * test or a beforeEach hook.
 */
export function tempDir(name: string, options: TempDirOptions = {}): string {
  const dir = make(name, options)
  onTestFinished(remove(dir))
  return dir
}

/**
 * A directory shared by the tests of a file or a describe block, removed after the last of them
 * (afterAll). Call it at the top of the file or of the block, where the tests are collected.
 */
export function suiteTempDir(name: string, options: TempDirOptions = {}): string {
  const dir = make(name, options)
  afterAll(remove(dir))
  return dir
}
