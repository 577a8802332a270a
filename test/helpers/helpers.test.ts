// The shared test helpers: the build check that guards the tests of dist/, the poll and the temp dirs.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildProblem } from './build'
import { pollUntil } from './poll-until'
import { suiteTempDir, tempDir } from './temp-dir'

function write(root: string, name: string, secondsAgo: number): void {
  const path = join(root, name)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, '')
  const at = Date.now() / 1000 - secondsAgo
  utimesSync(path, at, at)
}

describe('buildProblem', () => {
  it('names a source that has no output', () => {
    const root = tempDir('build-check')
    write(root, 'agent/tail/reader.ts', 10)
    expect(buildProblem(root)).toBe('agent/tail/reader.ts has no build output (dist/ is missing or older)')
  })

  it('names a source changed after its output was written', () => {
    const root = tempDir('build-check')
    write(root, 'agent/tail/reader.ts', 10)
    write(root, 'dist/agent/tail/reader.js', 20)
    expect(buildProblem(root)).toBe('agent/tail/reader.ts changed after the last build')
  })

  it('wants the bundle, written after every source', () => {
    const root = tempDir('build-check')
    write(root, 'logx/index.ts', 10)
    write(root, 'dist/logx/index.js', 5)
    expect(buildProblem(root)).toBe('dist/agent/logx-agent.bundle.js is missing')
    write(root, 'dist/agent/logx-agent.bundle.js', 20)
    expect(buildProblem(root)).toBe('dist/agent/logx-agent.bundle.js is older than the sources')
    write(root, 'dist/agent/logx-agent.bundle.js', 1)
    expect(buildProblem(root)).toBeUndefined()
  })
})

describe('pollUntil', () => {
  it('asks again while the probe answers undefined or false, and resolves with the first answer', async () => {
    const answers: (number | undefined | false)[] = [undefined, false, 0, 7]
    await expect(pollUntil('an answer', () => answers.shift(), { intervalMs: 1 })).resolves.toBe(0)
  })

  it('fails naming what it waited for', async () => {
    await expect(pollUntil('the sky to fall', () => false, { timeoutMs: 30, intervalMs: 5 })).rejects.toThrow(
      'timed out waiting for the sky to fall',
    )
  })
})

describe('tempDir', () => {
  let made = ''
  it('makes a directory of its own under the parent asked for', () => {
    const parent = tempDir('parent')
    made = tempDir('child', { parent })
    expect(made.startsWith(join(parent, '.tmp-child-'))).toBe(true)
    expect(existsSync(made)).toBe(true)
  })

  it('removed it when the test that made it finished', () => {
    expect(made).not.toBe('')
    expect(existsSync(made)).toBe(false)
  })
})

describe('suiteTempDir', () => {
  const shared = suiteTempDir('suite')
  afterAll(() => {
    // Hooks run in reverse order of registration: the helper's removal comes after this check.
    expect(existsSync(shared)).toBe(true)
  })

  it('lives through the tests of its block', () => {
    writeFileSync(join(shared, 'one'), '1')
    expect(existsSync(join(shared, 'one'))).toBe(true)
  })

  it('is still there for the next test', () => {
    expect(existsSync(join(shared, 'one'))).toBe(true)
  })
})
