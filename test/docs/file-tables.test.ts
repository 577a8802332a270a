// The READMEs' file tables list the files that exist. Each README of alerts/ and agent/ has a markdown
// table whose first column is `file`; every name written in backticks in that column must be a .ts
// file of the folders the README covers, and every .ts file there must be named (index.ts too: no
// file is exempt). Every source file of agent/ and alerts/ falls under exactly one README, so a new
// folder without a table fails as well. And a `.ts`/`.js` path a README names in its prose must
// exist. No build needed: this reads the tree and the markdown.

import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { suiteTempDir } from '../helpers/temp-dir'

const repoRoot = join(__dirname, '..', '..')

/** Each README, and the folders its file table covers (relative to the README's folder, subfolders included; `*.ts`: the folder's own files). */
const README_SCOPES: Readonly<Record<string, readonly string[]>> = {
  'agent/README.md': ['cli', 'daemon', '*.ts'],
  'agent/acknowledge/README.md': ['.'],
  'agent/cluster/README.md': ['.'],
  'agent/config/README.md': ['.'],
  'agent/delivery/README.md': ['*.ts'],
  'agent/delivery/channels/README.md': ['.'],
  'agent/delivery/fleet/README.md': ['.'],
  'agent/delivery/record/README.md': ['.'],
  'agent/events/README.md': ['.'],
  'agent/journald/README.md': ['.'],
  'agent/messaging/README.md': ['.'],
  'agent/outbox/README.md': ['.'],
  'agent/prefilter/README.md': ['.'],
  'agent/incidents/README.md': ['.'],
  'agent/intake/README.md': ['*.ts'],
  'agent/intake/alertmanager/README.md': ['.'],
  'agent/intake/otlp/README.md': ['.'],
  'agent/intake/syslog/README.md': ['.'],
  'agent/kinds/README.md': ['.'],
  'agent/storage/README.md': ['.'],
  'agent/sandbox/README.md': ['.'],
  'agent/tail/README.md': ['.'],
  'agent/transports/README.md': ['.'],
  'alerts/README.md': ['.'],
}

/** Folders whose every source file must fall under one README above. */
const DOCUMENTED_TREES = ['agent', 'alerts']

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git'])

/** Paths with `/`, relative to `base`, of the files under `dir` whose names pass `keep`. */
function filesUnder(dir: string, base: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : filesUnder(path, base, keep)
    return entry.isFile() && keep(entry.name) ? [relative(base, path).split(sep).join('/')] : []
  })
}

const isSource = (name: string): boolean => name.endsWith('.ts')

/** The source files one scope entry of a README in `readmeDir` covers, relative to `base`. */
function scopeFiles(readmeDir: string, folder: string, base: string): string[] {
  if (folder !== '*.ts') return filesUnder(join(readmeDir, folder), base, isSource)
  return readdirSync(readmeDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && isSource(entry.name))
    .map((entry) => relative(base, join(readmeDir, entry.name)).split(sep).join('/'))
}

interface FileTableRow {
  /** 1-based line of the row in the README. */
  line: number
  /** Every name written in backticks in the row's first cell. */
  names: string[]
}

/** The rows of every markdown table whose first header cell is `file`. */
function parseFileTables(markdown: string): FileTableRow[] {
  const rows: FileTableRow[] = []
  const lines = markdown.split('\n')
  let inTable = false
  lines.forEach((text, i) => {
    const cells = text.trim().startsWith('|') ? text.trim().slice(1).split('|') : undefined
    if (cells === undefined) {
      inTable = false
      return
    }
    const first = (cells[0] ?? '').trim()
    if (!inTable) {
      // A header row: the next line must be the separator.
      inTable = first === 'file' && /^\|[\s:|-]+\|?$/.test((lines[i + 1] ?? '').trim())
      return
    }
    if (/^:?-+:?$/.test(first)) return
    rows.push({ line: i + 1, names: [...first.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string) })
  })
  return rows
}

/** What is wrong with one README's file tables, each problem naming the README and the file. */
function fileTableProblems(root: string, readme: string, scope: readonly string[]): string[] {
  const readmeDir = join(root, dirname(readme))
  const markdown = readFileSync(join(root, readme), 'utf8')
  const rows = parseFileTables(markdown)
  if (rows.length === 0) return [`${readme}: no file table (a markdown table whose first column is \`file\`)`]
  const sources = new Set(scope.flatMap((folder) => scopeFiles(readmeDir, folder, readmeDir)))
  const problems: string[] = []
  const listed = new Set<string>()
  for (const row of rows) {
    if (row.names.length === 0) problems.push(`${readme}:${row.line}: a file table row names no file`)
    for (const name of row.names) {
      listed.add(name)
      if (sources.has(name)) continue
      let isFile = false
      try {
        isFile = statSync(join(readmeDir, name)).isFile()
      } catch {
        // Missing: reported below.
      }
      problems.push(
        isFile
          ? `${readme}:${row.line}: lists \`${name}\`, which is not a .ts file of the folders it covers (${scope.join(', ')})`
          : `${readme}:${row.line}: lists \`${name}\`, which does not exist`,
      )
    }
  }
  for (const source of [...sources].sort()) {
    if (!listed.has(source))
      problems.push(`${readme}: \`${source}\` (${dirname(readme)}/${source}) is not in its file table`)
  }
  return problems
}

/** `.ts`/`.js` paths named in backticks anywhere in the README that do not exist. */
function missingNamedPaths(root: string, readme: string, knownNames: ReadonlySet<string>): string[] {
  const markdown = readFileSync(join(root, readme), 'utf8')
  const problems: string[] = []
  for (const match of markdown.matchAll(/`([^`\s]+\.(?:ts|js))`/g)) {
    const name = match[1] as string
    // Placeholders (`test/agent/tail/<file>.test.ts`, `*.int.test.ts`) name no one file.
    if (/[<>*{}]/.test(name)) continue
    if (!name.includes('/')) {
      // A bare name is read in its paragraph's context: it must be some file of ours.
      if (!knownNames.has(name)) problems.push(`${readme}: names \`${name}\`, and no file has that name`)
      continue
    }
    // A path is relative to the README's folder or to one of its parents, up to the repository root.
    let dir = dirname(readme)
    let found = false
    for (;;) {
      try {
        found = statSync(join(root, dir, name)).isFile()
      } catch {
        found = false
      }
      if (found || dir === '.') break
      dir = dirname(dir)
    }
    if (!found) problems.push(`${readme}: names \`${name}\`, which does not exist`)
  }
  return problems
}

describe('README file tables', () => {
  it.each(Object.entries(README_SCOPES))('%s lists exactly the .ts files of its folders', (readme, scope) => {
    expect(fileTableProblems(repoRoot, readme, scope)).toEqual([])
  })

  it('every source file of agent/ and alerts/ falls under exactly one README', () => {
    const owners = new Map<string, string[]>()
    for (const [readme, scope] of Object.entries(README_SCOPES)) {
      const readmeDir = join(repoRoot, dirname(readme))
      for (const folder of scope) {
        for (const file of scopeFiles(readmeDir, folder, repoRoot))
          owners.set(file, [...(owners.get(file) ?? []), readme])
      }
    }
    const problems: string[] = []
    for (const tree of DOCUMENTED_TREES) {
      for (const file of filesUnder(join(repoRoot, tree), repoRoot, isSource)) {
        const readmes = owners.get(file) ?? []
        if (readmes.length === 0) problems.push(`${file} is covered by no README's file table (add its folder to one)`)
        if (readmes.length > 1) problems.push(`${file} is covered by ${readmes.join(' and ')}`)
      }
    }
    expect(problems).toEqual([])
  })

  const knownNames = new Set(
    filesUnder(repoRoot, repoRoot, (name) => /\.(?:ts|js)$/.test(name)).map((path) =>
      path.slice(path.lastIndexOf('/') + 1),
    ),
  )
  it.each(Object.keys(README_SCOPES))('%s names only .ts/.js paths that exist', (readme) => {
    expect(missingNamedPaths(repoRoot, readme, knownNames)).toEqual([])
  })
})

describe('the checks themselves', () => {
  const root = suiteTempDir('file-tables')

  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }

  it('reads only tables whose first column is `file`, every backticked name of a row', () => {
    const rows = parseFileTables(
      [
        '| key | meaning |',
        '|---|---|',
        '| `not-a-file.ts` | a key table |',
        '',
        '| file | concept |',
        '|---|---|',
        '| `a.ts`, `sub/b.ts` | two files |',
        '| `c.ts` / `d.ts` | two more |',
        'text after the table',
        '| `e.ts` | not in a table with a header |',
      ].join('\n'),
    )
    expect(rows.map((row) => row.names)).toEqual([
      ['a.ts', 'sub/b.ts'],
      ['c.ts', 'd.ts'],
    ])
  })

  it('names the README and the file: listed but gone, present but not listed, no table at all', () => {
    write(
      'mod/README.md',
      '# mod\n\n| file | concept |\n|---|---|\n| `kept.ts` | here |\n| `gone.ts` | removed |\n| `README.md` | not source |\n',
    )
    write('mod/kept.ts', '')
    write('mod/sub/new.ts', '')
    write('mod/index.ts', '')
    write('bare/README.md', '# bare\n\nNo table.\n')
    write('bare/x.ts', '')
    expect(fileTableProblems(root, 'mod/README.md', ['.'])).toEqual([
      'mod/README.md:6: lists `gone.ts`, which does not exist',
      'mod/README.md:7: lists `README.md`, which is not a .ts file of the folders it covers (.)',
      'mod/README.md: `index.ts` (mod/index.ts) is not in its file table',
      'mod/README.md: `sub/new.ts` (mod/sub/new.ts) is not in its file table',
    ])
    expect(fileTableProblems(root, 'bare/README.md', ['.'])).toEqual([
      'bare/README.md: no file table (a markdown table whose first column is `file`)',
    ])
  })

  it('finds paths in the prose that do not exist, against the README folder and its parents', () => {
    write('top/one.ts', '')
    write(
      'top/inner/README.md',
      'See `top/one.ts`, `inner/two.ts`, `one.ts`, `moved/three.ts`, `vanished.ts` and `<file>.test.ts`.\n',
    )
    write('top/inner/two.ts', '')
    expect(missingNamedPaths(root, 'top/inner/README.md', new Set(['one.ts', 'two.ts']))).toEqual([
      'top/inner/README.md: names `moved/three.ts`, which does not exist',
      'top/inner/README.md: names `vanished.ts`, and no file has that name',
    ])
  })
})
