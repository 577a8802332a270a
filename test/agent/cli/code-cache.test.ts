// bin/logx-agent.js runs the bundle through a code cache: each Node version, flag set and command has
// its own cache file, a run without a cache makes one, and a run with it starts from it.
// Runs the build (dist/): stops here, saying so, when it is missing or older than the sources.
import '../../helpers/needs-build'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bundleIsCurrent, cachePathFor } from '../../../agent/cli/code-cache'
import { suiteTempDir } from '../../helpers/temp-dir'

const root = resolve(__dirname, '../../..')
// The built loader, whose paths point into dist/.
const built = join(root, 'dist', 'agent', 'cli', 'code-cache.js')
const { BUNDLE_PATH: bundle, cachePathFor: builtCachePathFor } = (existsSync(built) ? require(built) : {}) as Partial<
  typeof import('../../../agent/cli/code-cache')
>
const bin = join(root, 'bin', 'logx-agent.js')
const dir = suiteTempDir('code-cache')

describe('cache files', () => {
  it('differ by command and by V8 flags, and name the run for a bare command line', () => {
    expect(cachePathFor(['validate', 'x.yaml'], [])).not.toBe(cachePathFor(['run'], []))
    expect(cachePathFor(['run'], ['--optimize-for-size'])).not.toBe(cachePathFor(['run'], []))
    expect(cachePathFor([], [])).toBe(cachePathFor(['run'], []))
    expect(cachePathFor(['--config', 'a.yaml'], [])).toBe(cachePathFor(['run'], []))
    expect(cachePathFor(['../../etc'], [])).not.toContain('..')
  })
})

describe('the bundle', () => {
  it('is used only when it is not older than the modules it was made from, and not when it is missing', () => {
    const bundle = join(dir, 'bundle.js')
    const entry = join(dir, 'main.js')
    writeFileSync(bundle, '')
    writeFileSync(entry, '')
    utimesSync(entry, new Date(1_000_000), new Date(1_000_000))
    utimesSync(bundle, new Date(2_000_000), new Date(2_000_000))
    expect(bundleIsCurrent(bundle, entry)).toBe(true)
    // tsc run again without the bundler: the modules are newer, the bundle is stale.
    utimesSync(entry, new Date(3_000_000), new Date(3_000_000))
    expect(bundleIsCurrent(bundle, entry)).toBe(false)
    expect(bundleIsCurrent(join(dir, 'no-bundle.js'), entry)).toBe(false)
  })
})

describe.runIf(bundle !== undefined && existsSync(bundle))('the built command line (npm run build)', () => {
  it('answers from the bundle, writes its cache at exit, and answers the same from the cache', () => {
    const config = join(dir, 'agent.yaml')
    writeFileSync(
      config,
      'sources:\n  - { name: app, paths: [x.log] }\nchannels:\n  sms: { type: sms, numbers: [919800000001] }\nrules:\n  - { name: r, level: error, notify: [sms] }\n',
    )
    // A flag set of its own, so no other test's cache is used: --stack-size changes V8's flag hash.
    const flags = ['--stack-size=900']
    const cache = (builtCachePathFor as typeof cachePathFor)(['validate'], flags)
    rmSync(cache, { force: true })
    const first = execFileSync(process.execPath, [...flags, bin, 'validate', config], { cwd: dir, encoding: 'utf8' })
    expect(existsSync(cache)).toBe(true)
    const second = execFileSync(process.execPath, [...flags, bin, 'validate', config], { cwd: dir, encoding: 'utf8' })
    expect(second).toBe(first)
    expect(first).toMatch(/valid/i)
    rmSync(cache, { force: true })
  })
})

describe.runIf(bundle !== undefined && existsSync(bundle))(
  'the caches npm run build makes (scripts/train-code-cache.js)',
  () => {
    it("are there for npm start's node flags, validate and test-rule: the first start reads from a cache that holds the reading path", () => {
      const { startFlags } = require(join(root, 'scripts', 'train-code-cache.js')) as { startFlags(): string[] }
      // The training run takes its flags from package.json's start script (it throws when it finds none):
      // a cache made under other flags would never be used.
      const path = builtCachePathFor as typeof cachePathFor
      expect(existsSync(path(['run', '--config', 'config/agent.yaml'], startFlags()))).toBe(true)
      expect(existsSync(path(['validate'], []))).toBe(true)
      expect(existsSync(path(['test-rule'], []))).toBe(true)
    })

    it('leave the minified bundle a source map for --enable-source-maps', () => {
      expect(
        readFileSync(bundle as string, 'utf8')
          .trimEnd()
          .endsWith('//# sourceMappingURL=logx-agent.bundle.js.map'),
      ).toBe(true)
      expect(existsSync(`${bundle as string}.map`)).toBe(true)
    })
  },
)
