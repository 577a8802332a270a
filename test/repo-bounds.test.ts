// The tests run on a fresh clone anywhere: no test file may read a path outside the repository (the
// workplace's shared folder beside the clone is not there on another machine or in a user's checkout).
// Corpora and other data go in test/fixtures/, with their licence and origin.

import { readdirSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const repoRoot = resolve(__dirname, '..')
const SOURCE = /\.(?:[cm]?ts|[cm]?js)$/

/** Mentions of the workplace's folders, however the path is written. */
const OUTSIDE_NAMES = [/(?:^|[^\w.])\/work\//, /\.\.[/\\]+shared\b/, /['"`]\.\.['"`]\s*,\s*['"`]shared['"`]/]

/** `join(__dirname, '..', 'x')` / `resolve(__dirname, ...)`: the leading string literals, in order. */
function dirnamePaths(source: string): { at: number; segments: string[] }[] {
  const found: { at: number; segments: string[] }[] = []
  const call = /\b(?:join|resolve)\(\s*__dirname/g
  for (let match = call.exec(source); match !== null; match = call.exec(source)) {
    const segments: string[] = []
    const literal = /^\s*,\s*(['"`])([^'"`$]*)\1/
    let rest = source.slice(match.index + match[0].length)
    for (let next = literal.exec(rest); next !== null; next = literal.exec(rest)) {
      segments.push(next[2] as string)
      rest = rest.slice(next[0].length)
    }
    found.push({ at: match.index, segments })
  }
  return found
}

/** Every place in `source` (the file at `file`) that reaches outside `root`, as "line: text". */
function pathsOutside(file: string, source: string, root: string): string[] {
  const problems: string[] = []
  const lineOf = (at: number) => source.slice(0, at).split('\n').length
  source.split('\n').forEach((line, i) => {
    if (OUTSIDE_NAMES.some((pattern) => pattern.test(line))) problems.push(`${i + 1}: ${line.trim()}`)
  })
  for (const { at, segments } of dirnamePaths(source)) {
    const target = resolve(file, '..', ...segments)
    const inside = relative(root, target)
    if (inside.startsWith('..') || isAbsolute(inside))
      problems.push(`${lineOf(at)}: __dirname + ${segments.join('/')} is ${target}`)
  }
  return problems
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return SOURCE.test(entry.name) ? [path] : []
  })
}

describe('tests stay inside the repository', () => {
  it('no test file reads a path outside the repository', () => {
    const problems: string[] = []
    for (const file of sourceFiles(join(repoRoot, 'test'))) {
      // This file names the forbidden patterns in its own checks below.
      if (file === __filename) continue
      for (const problem of pathsOutside(file, readFileSync(file, 'utf8'), repoRoot))
        problems.push(`${relative(repoRoot, file)}:${problem}`)
    }
    expect(problems).toEqual([])
  })

  it('catches the ways such a path is written', () => {
    const file = join(repoRoot, 'test', 'alerts', 'some.test.ts')
    const check = (source: string) => pathsOutside(file, source, repoRoot)
    expect(check("const corpus = join(__dirname, '..', '..', '..', 'shared', 'corpus', 'loghub')")).toHaveLength(2)
    expect(check("const c = join(__dirname, '..', '..', '..', other)")).toEqual([
      expect.stringContaining('__dirname + ../../..'),
    ])
    expect(check("readFileSync(__dirname + '/../../../shared/corpus/x.log')")).toHaveLength(1)
    expect(check("readFileSync('/work/shared/corpus/x.log')")).toHaveLength(1)
    expect(check('const dir = `${root}/../shared/spec`')).toHaveLength(1)
  })

  it("lets paths inside the repository and the machine's own folders through", () => {
    const file = join(repoRoot, 'test', 'alerts', 'some.test.ts')
    const check = (source: string) => pathsOutside(file, source, repoRoot)
    expect(check("const corpus = join(__dirname, '..', 'fixtures', 'corpus', 'loghub')")).toEqual([])
    expect(check("const dist = resolve(__dirname, '..', '..', 'dist', name)")).toEqual([])
    expect(check("import { x } from '../../agent/transports/shared/errors'")).toEqual([])
    expect(
      check("const log = '/var/log/app.log'; const t = join(tmpdir(), 'x'); const c = '/usr/bin/chromium'"),
    ).toEqual([])
  })
})
