// `logx/esbuild`: transports that survive esbuild. A bundle has no dist/logx/ and no node_modules
// beside it, so the files a transport loads by path (thread-stream's worker, logx's worker, each
// target) are built as separate CommonJS files beside the bundle, and a banner at the top of the
// bundle names them in globalThis.__bundlerPathsOverrides, which thread-stream and logx's target
// resolution read first. Targets are keyed by the name the app writes, as pino's bundler plugins
// key them, so a bundle made with one of those also finds pino-pretty and friends under logx.
//
//   await esbuild.build({ entryPoints: ['app.js'], bundle: true, platform: 'node', outdir: 'out',
//     plugins: [logxEsbuildPlugin({ targets: ['pino-pretty'] })] })
//
// The app is then `out/` as a whole: copy the folder, not only the bundle.

import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { LogxError, LogxErrorCodes } from './errors.js'
import { resolveTarget } from './resolve-target.js'

export interface LogxEsbuildPluginOptions {
  /**
   * Target names the app writes in `target` besides `logx/file` (always included), exactly as it
   * writes them: `'pino-pretty'`, `'./my-target.js'`, a name exported as `logx/targets/<name>`.
   * Module names and relative paths are resolved from the build's working directory.
   */
  targets?: readonly string[]
}

// Only the parts of esbuild's API the plugin touches, so that logx needs no esbuild types.
interface SeenBuildOptions {
  outdir?: string
  outfile?: string
  absWorkingDir?: string
  format?: string
  banner?: { [type: string]: string }
  target?: string | string[]
  minify?: boolean
  sourcemap?: boolean | string
  external?: string[]
  write?: boolean
}

interface SeenMessage {
  text: string
}

interface SeenBuildResult {
  errors: SeenMessage[]
  warnings: SeenMessage[]
}

interface SeenPluginBuild {
  initialOptions: SeenBuildOptions
  onStart(callback: () => Promise<{ errors?: SeenMessage[]; warnings?: SeenMessage[] }>): void
  esbuild: { build(options: SupportBuildOptions): Promise<SeenBuildResult> }
}

interface SupportBuildOptions {
  entryPoints: { in: string; out: string }[]
  bundle: true
  platform: 'node'
  format: 'cjs'
  outdir: string
  outExtension: { '.js': string }
  absWorkingDir: string
  logLevel: 'silent'
  target?: string | string[]
  minify?: boolean
  sourcemap?: boolean | 'linked' | 'inline' | 'external' | 'both'
  external?: string[]
}

export interface LogxEsbuildPlugin {
  name: string
  setup(build: SeenPluginBuild): void
}

/** One file emitted beside the bundle: the override key it answers to and its output name. */
interface SupportFile {
  key: string
  out: string
  resolve: (cwd: string) => string
}

const EXTENSION = '.cjs'

function fromHere(request: string): string {
  return createRequire(__filename).resolve(request)
}

function toPath(file: string): string {
  return file.startsWith('file://') ? fileURLToPath(file) : file
}

function outName(target: string): string {
  return `logx-target-${target.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '')}`
}

function supportFiles(targets: readonly string[]): SupportFile[] {
  const files: SupportFile[] = [
    {
      key: 'thread-stream-worker',
      out: 'logx-thread-stream-worker',
      resolve: () => fromHere('thread-stream/lib/worker.js'),
    },
    { key: 'logx-worker', out: 'logx-transport-worker', resolve: () => join(__dirname, 'transport-worker.js') },
    { key: 'logx/file', out: 'logx-file', resolve: () => join(__dirname, 'file-target.js') },
  ]
  for (const target of targets) {
    if (files.some((file) => file.key === target)) continue
    const out = outName(target)
    if (files.some((file) => file.out === out)) {
      throw new LogxError(
        LogxErrorCodes.INVALID_OPTION,
        `logx/esbuild: targets "${target}" and another one would share the file ${out}${EXTENSION}`,
        'targets',
      )
    }
    files.push({
      key: target,
      out,
      resolve: (cwd) => toPath(resolveTarget(target, [join(cwd, 'package.json')], 'targets')),
    })
  }
  return files
}

// Runs first in the bundle: every path is relative to the bundle's own folder at run time.
function bannerFor(files: readonly SupportFile[], format: string | undefined): string {
  const dir = format === 'esm' ? 'import.meta.dirname' : '__dirname'
  const entries = files.map(
    (file) => `${JSON.stringify(file.key)}: ${dir} + ${JSON.stringify(`/${file.out}${EXTENSION}`)}`,
  )
  return `globalThis.__bundlerPathsOverrides = { ...globalThis.__bundlerPathsOverrides, ${entries.join(', ')} };`
}

function messagesOf(err: unknown): SeenMessage[] {
  const errors = (err as { errors?: unknown } | null)?.errors
  if (Array.isArray(errors) && errors.length > 0) return errors as SeenMessage[]
  return [{ text: `logx/esbuild: ${(err as Error)?.message ?? String(err)}` }]
}

function toSourcemap(value: SeenBuildOptions['sourcemap']): SupportBuildOptions['sourcemap'] {
  return value === true ||
    value === false ||
    value === 'linked' ||
    value === 'inline' ||
    value === 'external' ||
    value === 'both'
    ? value
    : undefined
}

/** The esbuild plugin: emits the transport files beside the bundle and points the bundle at them. */
export function logxEsbuildPlugin(options: LogxEsbuildPluginOptions = {}): LogxEsbuildPlugin {
  const files = supportFiles(options.targets ?? [])
  return {
    name: 'logx-transports',
    setup(build) {
      const initial = build.initialOptions
      const outdir = initial.outdir ?? (initial.outfile !== undefined ? dirname(initial.outfile) : undefined)
      const banner = bannerFor(files, initial.format)
      const own = initial.banner?.['js']
      // After the app's own banner, which may hold a shebang that must stay on the first line.
      initial.banner = { ...initial.banner, js: own === undefined ? banner : `${own}\n${banner}` }

      build.onStart(async () => {
        if (outdir === undefined || initial.write === false) {
          return {
            errors: [
              {
                text:
                  'logx/esbuild: the build must write its output to disk ' +
                  '(set outfile or outdir, and keep write: true)',
              },
            ],
          }
        }
        const cwd = initial.absWorkingDir ?? process.cwd()
        try {
          const entryPoints = files.map((file) => ({ in: file.resolve(cwd), out: file.out }))
          const sourcemap = toSourcemap(initial.sourcemap)
          const result = await build.esbuild.build({
            entryPoints,
            bundle: true,
            platform: 'node',
            format: 'cjs',
            outdir: resolve(cwd, outdir),
            outExtension: { '.js': EXTENSION },
            absWorkingDir: cwd,
            logLevel: 'silent',
            ...(initial.target === undefined ? {} : { target: initial.target }),
            ...(initial.minify === undefined ? {} : { minify: initial.minify }),
            ...(sourcemap === undefined ? {} : { sourcemap }),
            ...(initial.external === undefined ? {} : { external: initial.external }),
          })
          return { errors: result.errors, warnings: result.warnings }
        } catch (err) {
          return { errors: messagesOf(err) }
        }
      })
    },
  }
}

export default logxEsbuildPlugin
