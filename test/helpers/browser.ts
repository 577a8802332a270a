// The Chromium that the browser suites drive, so that they run (not skip) on any machine with Node:
//
// 1. $CHROMIUM_PATH when it is set (it must exist: a wrong path is an error, not a fallback);
// 2. else the system's /usr/bin/chromium when present (CI installs Debian's, see .ci/run);
// 3. else the headless Chromium shipped inside the @sparticuz/chromium devDependency, brotli-compressed.
//    It is unpacked once per version under node_modules/.cache/logx-chromium/ (a temp folder when
//    node_modules cannot be written), into a staging folder renamed into place, so suites that start
//    together in two workers never see a half-written binary. Nothing is downloaded and no root is needed.
//
// The package's binary is built for Amazon Linux. It links to NSS, NSPR and expat; a slim Debian image may
// lack those, and the package carries Amazon Linux's copies (al2023.tar.br). They are unpacked and put on
// LD_LIBRARY_PATH only when the binary cannot start without them, since they need glibc 2.34 or later.

import { spawnSync } from 'node:child_process'
import {
  accessSync,
  chmodSync,
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

export const SYSTEM_CHROMIUM = '/usr/bin/chromium'
const NPM_PACKAGE = '@sparticuz/chromium'
const repoRoot = join(__dirname, '..', '..')

/**
 * What every suite passes besides `headless: true` (which adds --headless) and the fresh profile folder
 * (--user-data-dir): no sandbox (CI runs as root), no GPU, nothing that reaches the network by itself.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'npm'

export interface ChromiumChoice {
  source: ChromiumSource
  executablePath: string
  /** Set when the browser needs more than the caller's environment (the bundled libraries). */
  env?: Record<string, string>
}

/** Which browser to use, before anything is unpacked. `exists` is a parameter so the order can be tested. */
export function pickChromiumSource(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean,
): { source: Exclude<ChromiumSource, 'npm'>; executablePath: string } | { source: 'npm' } {
  const configured = env['CHROMIUM_PATH']
  if (configured !== undefined && configured !== '') {
    if (!exists(configured)) throw new Error(`CHROMIUM_PATH is ${configured}, which does not exist`)
    return { source: 'CHROMIUM_PATH', executablePath: configured }
  }
  if (exists(SYSTEM_CHROMIUM)) return { source: 'system', executablePath: SYSTEM_CHROMIUM }
  return { source: 'npm' }
}

export interface NpmChromiumOptions {
  /** Where unpacked versions live; default node_modules/.cache/logx-chromium. */
  cacheRoot?: string
  /** 'auto': the bundled libraries only when the system's are missing; 'bundled': always (to test them). */
  libraries?: 'auto' | 'bundled'
}

function packageDir(): { dir: string; version: string } {
  // build/cjs/index.cjs -> the package folder (its exports do not expose package.json).
  const main = createRequire(__filename).resolve(NPM_PACKAGE)
  const dir = join(dirname(main), '..', '..')
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
  return { dir, version }
}

/** node_modules/.cache when this version is unpacked there or can be; else a folder of this user's in tmp. */
function defaultCacheRoot(version: string): string {
  const inRepo = join(repoRoot, 'node_modules', '.cache', 'logx-chromium')
  if (existsSync(join(inRepo, version, 'chromium'))) return inRepo
  try {
    mkdirSync(inRepo, { recursive: true })
    accessSync(inRepo, constants.W_OK)
    return inRepo
  } catch {
    return join(tmpdir(), `logx-chromium-${process.getuid?.() ?? 'user'}`)
  }
}

/** Fills a fresh staging folder with `fill` and renames it to `target`; if another process got there first, theirs is kept. */
async function unpackOnce(target: string, fill: (staging: string) => Promise<void>): Promise<void> {
  if (existsSync(target)) return
  mkdirSync(dirname(target), { recursive: true })
  removeAbandoned(target)
  const staging = mkdtempSync(`${target}.partial-`)
  try {
    await fill(staging)
    // mkdtemp made it private; whoever can read node_modules may run the browser.
    chmodSync(staging, 0o755)
    renameSync(staging, target)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(target)) throw error
  }
}

/** Staging folders of runs that were killed while unpacking (200 MB each); an hour is far past any live unpack. */
function removeAbandoned(target: string): void {
  const prefix = `${basename(target)}.partial-`
  for (const name of readdirSync(dirname(target))) {
    if (!name.startsWith(prefix)) continue
    const path = join(dirname(target), name)
    try {
      if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true })
    } catch {
      // Another run removed it first.
    }
  }
}

function untarBrotli(archive: string, into: string): void {
  const result = spawnSync('tar', ['-x', '-C', into], { input: brotliDecompressSync(readFileSync(archive)) })
  if (result.error !== undefined) throw new Error(`cannot run tar to unpack ${archive}: ${result.error.message}`)
  if (result.status !== 0) throw new Error(`tar failed on ${archive}: ${result.stderr.toString()}`)
}

/** The binary's own start-up check: it exits at once, before any page, when a library is missing. */
function startCheck(executablePath: string, env: NodeJS.ProcessEnv): { ok: boolean; output: string } {
  const result = spawnSync(executablePath, ['--version'], { env, encoding: 'utf8', timeout: 30_000 })
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`.trim()
  return { ok: result.status === 0, output }
}

/** The npm package's Chromium, unpacked (once) and checked to start. */
export async function npmChromium(options: NpmChromiumOptions = {}): Promise<ChromiumChoice> {
  const { dir: pkg, version } = packageDir()
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `${NPM_PACKAGE} ships a Linux x64 Chromium only; on ${process.platform}/${process.arch} install Chromium and set CHROMIUM_PATH`,
    )
  }
  const bin = join(pkg, 'bin')
  const home = join(options.cacheRoot ?? defaultCacheRoot(version), version)
  await unpackOnce(home, async (staging) => {
    await pipeline(
      createReadStream(join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(join(staging, 'chromium'), { mode: 0o755 }),
    )
  })
  const executablePath = join(home, 'chromium')
  const plain = startCheck(executablePath, process.env)
  if (plain.ok && options.libraries !== 'bundled') return { source: 'npm', executablePath }

  const libs = join(home, 'al2023')
  await unpackOnce(libs, async (staging) => untarBrotli(join(bin, 'al2023.tar.br'), staging))
  const libraryPath = [join(libs, 'lib'), process.env['LD_LIBRARY_PATH']]
    .filter((p) => p !== undefined && p !== '')
    .join(':')
  const env = { ...definedEnv(process.env), LD_LIBRARY_PATH: libraryPath }
  const bundled = startCheck(executablePath, env)
  if (!bundled.ok) {
    throw new Error(
      `${NPM_PACKAGE} ${version}'s Chromium does not start here, with the system's libraries (${plain.output}) ` +
        `nor with the bundled ones (${bundled.output}); install Chromium (e.g. apt-get install chromium) or set CHROMIUM_PATH`,
    )
  }
  return { source: 'npm', executablePath, env }
}

function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return out
}

export async function findChromium(): Promise<ChromiumChoice> {
  const picked = pickChromiumSource(process.env, existsSync)
  return picked.source === 'npm' ? npmChromium() : picked
}

export interface LaunchedChromium {
  choice: ChromiumChoice
  context: BrowserContext
  /** The context's first tab. */
  page: Page
  /** Closes the browser and removes its profile folder. */
  close(): Promise<void>
}

/** Starts headless Chromium on a fresh profile folder (its --user-data-dir). */
export async function launchChromium(choice?: ChromiumChoice): Promise<LaunchedChromium> {
  const chosen = choice ?? (await findChromium())
  const profileDir = mkdtempSync(join(tmpdir(), 'logx-chromium-profile-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chosen.executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      ...(chosen.env === undefined ? {} : { env: chosen.env }),
    })
  } catch (error) {
    rmSync(profileDir, { recursive: true, force: true })
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(`cannot start Chromium (${chosen.source}: ${chosen.executablePath}): ${message}`)
  }
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    choice: chosen,
    context,
    page,
    close: async () => {
      await context.close()
      rmSync(profileDir, { recursive: true, force: true })
    },
  }
}
