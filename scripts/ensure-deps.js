#!/usr/bin/env node
// Run first by `npm start` and `npm test` (and the other scripts that need the devDependencies), so that on
// a fresh clone those commands are all the set-up there is: when node_modules is missing, or does not hold
// what package-lock.json pins, this runs `npm ci` (which also builds, through "prepare"). When node_modules
// already matches, it only reads two JSON files and checks each package folder is there.
//
// Plain Node only: nothing here may need a dependency, since it runs before there are any.
'use strict'

const { spawnSync } = require('node:child_process')
const { existsSync, readFileSync } = require('node:fs')
const { join, resolve } = require('node:path')

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

/**
 * Whether `root`'s node_modules is what its package-lock.json pins. npm writes what it installed to
 * node_modules/.package-lock.json; every package the lockfile requires must be there at the same version,
 * with its folder present. Optional packages (other platforms' binaries) may be absent.
 * @param {string} root
 * @returns {{ ok: true } | { ok: false, reason: string }}
 */
function depsState(root) {
  const lock = readJson(join(root, 'package-lock.json'))
  if (lock === undefined || typeof lock.packages !== 'object') return { ok: false, reason: 'package-lock.json is missing or unreadable' }
  if (!existsSync(join(root, 'node_modules'))) return { ok: false, reason: 'node_modules is missing' }
  const installed = readJson(join(root, 'node_modules', '.package-lock.json'))
  if (installed === undefined || typeof installed.packages !== 'object') {
    return { ok: false, reason: 'node_modules was not installed by npm from package-lock.json' }
  }
  for (const [path, wanted] of Object.entries(lock.packages)) {
    if (path === '' || !path.startsWith('node_modules/')) continue
    const have = installed.packages[path]
    if (have === undefined) {
      if (wanted.optional === true) continue
      return { ok: false, reason: `${path} is not installed` }
    }
    if (have.version !== wanted.version) return { ok: false, reason: `${path} is ${have.version}, package-lock.json wants ${wanted.version}` }
    if (!existsSync(join(root, path))) return { ok: false, reason: `${path} is missing` }
  }
  return { ok: true }
}

/** The npm that runs this script (npm_execpath), else the one on PATH. */
function npmCommand(args) {
  const npmCli = process.env.npm_execpath
  if (npmCli !== undefined && /\.[cm]?js$/.test(npmCli)) return { command: process.execPath, args: [npmCli, ...args] }
  return { command: process.platform === 'win32' ? 'npm.cmd' : 'npm', args }
}

function main() {
  const root = resolve(__dirname, '..')
  const state = depsState(root)
  if (state.ok) return 0
  process.stderr.write(`ensure-deps: ${state.reason}; installing with npm ci (once)\n`)
  // --include=dev: building and testing need the devDependencies even where NODE_ENV=production.
  const { command, args } = npmCommand(['ci', '--include=dev', '--no-audit', '--no-fund'])
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (result.error !== undefined) {
    process.stderr.write(`ensure-deps: cannot run npm: ${result.error.message}\n`)
    return 1
  }
  return result.status ?? 1
}

module.exports = { depsState }

if (require.main === module) process.exitCode = main()
