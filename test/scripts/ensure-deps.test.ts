// scripts/ensure-deps.js decides whether `npm start` / `npm test` must run `npm ci` first.

import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/temp-dir'

type DepsState = { ok: true } | { ok: false; reason: string }
const repoRoot = join(__dirname, '..', '..')
const script = join(repoRoot, 'scripts', 'ensure-deps.js')
const { depsState } = createRequire(__filename)(script) as { depsState: (root: string) => DepsState }

const LOCK = {
  name: 'app',
  lockfileVersion: 3,
  packages: {
    '': { name: 'app', devDependencies: { left: '1.0.0' } },
    'node_modules/left': { version: '1.0.0', dev: true },
    'node_modules/left/node_modules/pad': { version: '2.1.0', dev: true },
    'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', dev: true, optional: true, os: ['darwin'] },
  },
}

let root = ''

function install(packages: Record<string, { version: string }>): void {
  mkdirSync(join(root, 'node_modules'), { recursive: true })
  writeFileSync(
    join(root, 'node_modules', '.package-lock.json'),
    JSON.stringify({ name: 'app', lockfileVersion: 3, packages }),
  )
  for (const [path, { version }] of Object.entries(packages)) {
    mkdirSync(join(root, path), { recursive: true })
    writeFileSync(join(root, path, 'package.json'), JSON.stringify({ version }))
  }
}

beforeEach(() => {
  root = tempDir('ensure-deps')
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify(LOCK))
})

describe('depsState', () => {
  it('asks for an install on a fresh clone (no node_modules)', () => {
    expect(depsState(root)).toEqual({ ok: false, reason: 'node_modules is missing' })
  })

  it("accepts node_modules that npm installed from the lockfile, without other platforms' optional binaries", () => {
    install({ 'node_modules/left': { version: '1.0.0' }, 'node_modules/left/node_modules/pad': { version: '2.1.0' } })
    expect(depsState(root)).toEqual({ ok: true })
  })

  it('asks again when node_modules is not what the lockfile pins', () => {
    install({ 'node_modules/left': { version: '0.9.0' }, 'node_modules/left/node_modules/pad': { version: '2.1.0' } })
    expect(depsState(root)).toEqual({ ok: false, reason: 'node_modules/left is 0.9.0, package-lock.json wants 1.0.0' })

    install({ 'node_modules/left': { version: '1.0.0' } })
    expect(depsState(root)).toEqual({ ok: false, reason: 'node_modules/left/node_modules/pad is not installed' })
  })

  it('asks again when a package folder was deleted by hand, or npm did not install node_modules', () => {
    install({ 'node_modules/left': { version: '1.0.0' }, 'node_modules/left/node_modules/pad': { version: '2.1.0' } })
    rmSync(join(root, 'node_modules', 'left', 'node_modules'), { recursive: true })
    expect(depsState(root)).toEqual({ ok: false, reason: 'node_modules/left/node_modules/pad is missing' })

    rmSync(join(root, 'node_modules', '.package-lock.json'))
    expect(depsState(root)).toEqual({
      ok: false,
      reason: 'node_modules was not installed by npm from package-lock.json',
    })
  })
})

describe('this checkout', () => {
  it('takes the fast path after npm ci: the script installs nothing and says nothing', () => {
    expect(depsState(repoRoot)).toEqual({ ok: true })
    const run = spawnSync(process.execPath, [script], { cwd: repoRoot, encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
  })
})
