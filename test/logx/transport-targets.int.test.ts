// logx/ stands alone: it knows its own `logx/file` and nothing of the agent's layout. The alert
// targets are the package's exports (`logx/targets/<name>` in package.json), which logx looks at for
// a bare name that resolves nowhere else.
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { resolveTarget } from '../../dist/logx/resolve-target.js'
import { suiteTempDir } from '../helpers/temp-dir'

const run = promisify(execFile)
const root = join(__dirname, '..', '..')
const alertTargets = [
  'logx-tail-filter',
  'logx-sms-alert',
  'logx-chat-alert',
  'logx-mail-alert',
  'logx-voice-alert',
  'logx-incident',
]
const tmp = suiteTempDir('targets')

describe('target names', () => {
  it('no logx source names an agent path or an alert target', () => {
    const sources = readdirSync(join(root, 'logx')).filter((file) => file.endsWith('.ts'))
    const offenders = sources.filter((file) =>
      /agent[\\/]|['"`]logx-(?:sms|chat|mail|voice)-alert['"`]|['"`]logx-(?:incident|tail-filter)['"`]/.test(
        readFileSync(join(root, 'logx', file), 'utf8'),
      ),
    )
    expect(offenders).toEqual([])
  })

  it('the package exports every alert target, and logx resolves the names through those exports', () => {
    const fromElsewhere = createRequire(join(tmp, 'app.js'))
    for (const name of alertTargets) {
      const exported = createRequire(__filename).resolve(`logx/targets/${name}`)
      expect(existsSync(exported)).toBe(true)
      // Anchored in a folder where nothing named like the target is installed.
      expect(() => fromElsewhere.resolve(name)).toThrow()
      expect(resolveTarget(name, [join(tmp, 'app.js')])).toBe(exported)
    }
  })

  it("logx/file is logx's own, and also a package export", () => {
    const own = resolveTarget('logx/file', [join(tmp, 'app.js')])
    expect(own).toBe(join(root, 'dist', 'logx', 'file-target.js'))
    expect(createRequire(__filename).resolve('logx/file')).toBe(own)
  })

  it("a name exported nowhere fails with pino's message", () => {
    expect(() => resolveTarget('logx-pager-alert', [join(tmp, 'app.js')])).toThrow(
      'unable to determine transport target for "logx-pager-alert"',
    )
    // Only one plain segment is looked up under logx/targets/.
    expect(() => resolveTarget('../targets/logx-sms-alert', [join(tmp, 'app.js')])).toThrow(/unable to determine/)
  })

  it('an alert target by name works from the ESM entry, run from another directory', async () => {
    const out = join(tmp, 'esm.log')
    const app = join(root, 'test', 'fixtures', 'transports', 'apps', 'esm-alert-targets-app.mjs')
    await run(process.execPath, [app, out], { cwd: tmp, timeout: 20_000 })
    const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean)
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['db down'])
  })

  it('a bundler override wins over every other resolution', () => {
    const file = join(tmp, 'beside-the-bundle.cjs')
    const globals = globalThis as { __bundlerPathsOverrides?: Record<string, string> }
    globals.__bundlerPathsOverrides = { 'logx-sms-alert': file, 'logx/file': file }
    try {
      expect(resolveTarget('logx-sms-alert', [])).toBe(file)
      expect(resolveTarget('logx/file', [])).toBe(file)
    } finally {
      delete globals.__bundlerPathsOverrides
    }
  })
})
