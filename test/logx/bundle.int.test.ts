// Transports that survive a bundler (pino#1157, #1465, #2048: the worker file is not found after
// bundling). A sample app is bundled with esbuild and logx/esbuild's plugin, its output folder is
// copied to a fresh directory outside the repository (no node_modules in reach) and run there: the
// file target, pino-pretty and an alert target all work. Without the plugin the same app says
// what is missing and keeps running.
import { execFile } from 'node:child_process'
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { logxEsbuildPlugin } from 'logx/esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRemoteSandbox, type RemoteSandbox } from '../agent/transports/helpers'
import { tempDir } from '../helpers/temp-dir'

const run = promisify(execFile)
const root = join(__dirname, '..', '..')
const app = join(root, 'test', 'fixtures', 'bundle-app', 'app.js')
let sandbox: RemoteSandbox | undefined

type BuildOptions = Parameters<typeof build>[0]

/** Bundles the app, then moves the output folder elsewhere and deletes the original. */
async function bundle(plugins: BuildOptions['plugins'], more: BuildOptions = {}): Promise<string> {
  const outdir = tempDir('bundle-out')
  const result = await build({
    entryPoints: [app],
    bundle: true,
    platform: 'node',
    outdir,
    logLevel: 'silent',
    plugins,
    ...more,
  })
  expect(result.errors).toEqual([])
  const copy = tempDir('bundle-run')
  cpSync(outdir, copy, { recursive: true })
  rmSync(outdir, { recursive: true, force: true })
  expect(relative(root, copy).startsWith('..')).toBe(true)
  return copy
}

async function runApp(
  dir: string,
  args: string[],
  entry = 'app.js',
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOGX_MESSAGING_URL: sandbox?.info.baseUrl ?? '',
    LOGX_API_KEY: sandbox?.apiKey ?? '',
  }
  delete env.NODE_PATH
  delete env.NODE_OPTIONS
  try {
    const { stdout, stderr } = await run(process.execPath, [join(dir, entry), ...args], {
      cwd: dir,
      env,
      timeout: 30_000,
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string }
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' }
  }
}

beforeAll(async () => {
  sandbox = await startRemoteSandbox()
})

afterAll(async () => {
  await sandbox?.close()
})

describe('an app bundled with esbuild', () => {
  it('with logx/esbuild: runs from a copy of its output folder, every target working', async () => {
    const dir = await bundle([logxEsbuildPlugin({ targets: ['pino-pretty', 'logx-sms-alert'] })])
    expect(readdirSync(dir).sort()).toEqual([
      'app.js',
      'logx-file.cjs',
      'logx-target-logx-sms-alert.cjs',
      'logx-target-pino-pretty.cjs',
      'logx-thread-stream-worker.cjs',
      'logx-transport-worker.cjs',
    ])
    const file = join(dir, 'app.log')
    const result = await runApp(dir, [file])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)

    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [30, 'bundled and running'],
      [50, 'payment gateway down'],
    ])
    expect(lines[0].user).toBe('ann')

    expect(result.stdout).toMatch(/INFO \(\d+\): bundled and running\n\s+user: "ann"/)
    expect(result.stdout).toMatch(/ERROR \(\d+\): payment gateway down/)

    const sms = await sandbox!.records('sms')
    expect(sms).toHaveLength(1)
    expect(sms[0]?.numbers).toEqual([919800000004])
    expect(String(sms[0]?.sms)).toContain('payment gateway down')
  })

  it("as an ES module bundle, with the README's shims for the CommonJS packages inside", async () => {
    const shims =
      "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); " +
      'const __filename = import.meta.filename, __dirname = import.meta.dirname;'
    const dir = await bundle([logxEsbuildPlugin({ targets: ['pino-pretty'] })], {
      format: 'esm',
      outExtension: { '.js': '.mjs' },
      banner: { js: shims },
    })
    const file = join(dir, 'app.log')
    const result = await runApp(dir, [file, 'file-only'], 'app.mjs')
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).msg),
    ).toEqual(['bundled and running', 'payment gateway down'])
  })

  it('without it: the app keeps running and the warning says what is missing', async () => {
    const dir = await bundle([])
    const file = join(dir, 'app.log')
    const result = await runApp(dir, [file, 'file-only'])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('LOGX_TRANSPORT_FAILED')
    expect(result.stderr).toContain(
      'transport files must be emitted beside the bundle (see "Bundling" in logx\'s README)',
    )
  })

  it("without it, a target found by module name fails at logx() with pino's message", async () => {
    const dir = await bundle([])
    const result = await runApp(dir, [join(dir, 'app.log')])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('unable to determine transport target for "pino-pretty"')
  })

  it('the plugin refuses a build that writes nothing, saying why', async () => {
    const failed = await build({
      entryPoints: [app],
      bundle: true,
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins: [logxEsbuildPlugin()],
    }).catch((err: { errors?: { text: string }[] }) => err)
    expect((failed as { errors?: { text: string }[] }).errors?.map((e) => e.text)).toEqual([
      'logx/esbuild: the build must write its output to disk (set outfile or outdir, and keep write: true)',
    ])
  })
})
