// Types that compile where pino's do: test/fixtures/types-compat is an app written against pino's
// types (pino.Logger, LoggerOptions, DestinationStream, TransportTargetOptions, Level, custom level
// generics, ChildLoggerOptions, redact shapes, SerializerFn, stdSerializers, destination(),
// multistream(), transport()). Its only import is 'logx': tsconfig.pino.json maps it to pino's
// types, which proves the app is pino code; tsconfig.json maps it to logx's built types (dist/).
// src/rejected.ts holds what pino's types refuse, each under @ts-expect-error, so logx's types
// must refuse it too: loosening them to `any` fails this test.
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = join(__dirname, '..', '..')
const fixture = join(root, 'test', 'fixtures', 'types-compat')
const tsc = join(root, 'node_modules', '.bin', 'tsc')

async function typecheck(project: string): Promise<string> {
  try {
    await run(tsc, ['-p', join(fixture, project)], { cwd: fixture, timeout: 120_000 })
    return ''
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; message: string }
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message
  }
}

describe('an app typed against pino', () => {
  it("is pino code: it compiles against pino's own types", async () => {
    expect(await typecheck('tsconfig.pino.json')).toBe('')
  })

  it('compiles against logx with only the import changed', async () => {
    expect(existsSync(join(root, 'dist', 'logx', 'index.d.ts'))).toBe(true)
    expect(await typecheck('tsconfig.json')).toBe('')
  })

  it('the named pino import the fixture uses is the factory at run time too', async () => {
    const required = createRequire(join(root, 'package.json'))('logx') as { pino: unknown }
    expect(required.pino).toBe(required)
    const esm = (await import(join(root, 'esm', 'index.mjs'))) as { pino: unknown; default: unknown }
    expect(esm.pino).toBe(esm.default)
  })
})
