import { describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createRequire } from 'node:module'
import logx from 'logx'
import { tempDir } from '../helpers/temp-dir'

const root = resolve(__dirname, '../..')
const requireFromRoot = createRequire(join(root, 'package.json'))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

describe('package exports', () => {
  it('require("logx") returns the factory with its statics, .default and .logx', () => {
    const required = requireFromRoot('logx')
    expect(typeof required).toBe('function')
    expect(required.default).toBe(required)
    expect(required.logx).toBe(required)
    for (const name of [
      'destination',
      'transport',
      'multistream',
      'levels',
      'stdSerializers',
      'stdTimeFunctions',
      'symbols',
      'version',
    ]) {
      expect(required[name], name).toBeDefined()
    }
    expect(required.levels.values.info).toBe(30)
    expect(required.levels.labels[50]).toBe('error')
  })

  it('version on the factory and on instances equals package.json', () => {
    expect(logx.version).toBe(pkg.version)
    expect(logx({ enabled: false }).version).toBe(pkg.version)
  })

  it('an ESM import works, default and named', () => {
    // Inside the package, so `import 'logx'` resolves by self-reference exactly as in an app that installed it.
    const dir = tempDir('esm', { parent: root })
    const file = join(dir, 'check.mjs')
    writeFileSync(
      file,
      `import logx, { destination, version, stdSerializers } from 'logx'
       const l = logx({ base: null, timestamp: false })
       l.info({ v: version, d: typeof destination, s: typeof stdSerializers.err }, 'from esm')`,
    )
    const out = execFileSync(process.execPath, [file], { cwd: root, encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual({ level: 30, v: pkg.version, d: 'function', s: 'function', msg: 'from esm' })
  })

  it('CommonJS without a bundler: a script in the project requires the factory', () => {
    const dir = tempDir('cjs')
    const file = join(dir, 'check.cjs')
    writeFileSync(
      file,
      `const logx = require(${JSON.stringify(root)}); logx({ base: null, timestamp: false }).warn('cjs')`,
    )
    const out = execFileSync(process.execPath, [file], { encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual({ level: 40, msg: 'cjs' })
  })

  it('exposes its types on the factory, as pino does (checked by the typecheck step of npm test)', () => {
    const options: logx.LoggerOptions = { level: 'debug', redact: ['secret'] }
    const logger: logx.Logger = logx(options, { write() {} } as unknown as logx.DestinationStream)
    const child: logx.Logger = logger.child({ a: 1 }, { level: 'warn' } satisfies logx.ChildOptions)
    const code: logx.LogxErrorCode = logx.errorCodes.UNKNOWN_LEVEL
    expect([logger.level, child.level, code]).toEqual(['debug', 'warn', 'LOGX_ERR_UNKNOWN_LEVEL'])
  })

  it('ships type declarations', () => {
    expect(pkg.types).toBe('dist/logx/index.d.ts')
    expect(readFileSync(join(root, pkg.types), 'utf8')).toContain('export =')
  })
})
