// What bin/logx-agent.js runs: the bundled command line (scripts/bundle-agent.js), compiled from a V8
// code cache. A cold start otherwise spends most of its time resolving, reading and compiling a few
// hundred modules. V8 takes a cache only from the same V8 and the same flags (npm start's memory
// flags change it), and a cache made after a command has run also holds the functions that run
// compiled, so there is one cache per Node version, flag set and command. A missing or rejected
// cache is made by the run that missed it (after start-up, or at exit for a one-shot command) and
// written beside the bundle when that folder is writable; `npm run build` makes the usual ones.
// Without a bundle, or with one older than the modules (tsc run alone), the modules load as they are.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Script } from 'node:vm'
import { sha256 } from '../sha256'

export const BUNDLE_PATH = join(__dirname, '..', 'logx-agent.bundle.js')
export const CACHE_DIR = join(__dirname, '..', 'code-cache')
/** A long-running command saves its cache once start-up is over: by then it has compiled what starting needs. */
const SAVE_AFTER_MS = 3000

// The loader's own Module class, as every CommonJS module's `module.constructor`: requiring the public
// node:module would also load the ES module loader and source-map support (0.2 MB) for one function.
const Module = module.constructor as typeof import('node:module')

interface CliModule {
  main(argv: readonly string[]): Promise<void>
}

/** The cache file for this process: Node version, V8 flags and the command (the run or a one-shot command). */
export function cachePathFor(argv: readonly string[], execArgv: readonly string[] = process.execArgv): string {
  const first = argv[0]
  const command = first === undefined || first.startsWith('-') ? 'run' : first.replace(/[^a-z-]/gi, '_').slice(0, 20)
  const key = `${process.version} ${process.arch} ${execArgv.join(' ')}`
  // A short, stable file name; the bundle loads node:crypto anyway (a checkpoint's file head).
  return join(CACHE_DIR, `${command}-${sha256(key).toString('hex').slice(0, 8)}.bin`)
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch {
    return undefined
  }
}

function saveCache(script: Script, path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true })
    const temp = `${path}.${process.pid}.tmp`
    writeFileSync(temp, script.createCachedData())
    renameSync(temp, path)
  } catch {
    // A read-only install (a global npm prefix): the next start compiles again, nothing else changes.
  }
}

/** Whether the bundle was made from the modules it bundles: tsc run alone leaves an older one behind. */
export function bundleIsCurrent(bundle: string = BUNDLE_PATH, entry: string = join(__dirname, 'main.js')): boolean {
  try {
    return statSync(bundle).mtimeMs >= statSync(entry).mtimeMs
  } catch {
    return false
  }
}

/**
 * The bundle's Script, from the cache when there is one. Its own function so that the file's bytes
 * and the cache (2.5 MB outside the heap) are garbage before the bundle runs: held through start-up,
 * they outlived the young generation and stayed until the first full collection, the agent's peak RSS.
 */
function compileBundle(cachePath: string): { script: Script; hadCache: boolean } | undefined {
  const source = readOrUndefined(BUNDLE_PATH)
  if (source === undefined) return undefined
  const cachedData = readOrUndefined(cachePath)
  // The bundle is already the loader's wrapper function (scripts/bundle-agent.js): one string, as read.
  const script = new Script(source.toString('utf8'), { filename: BUNDLE_PATH, cachedData })
  return { script, hadCache: cachedData !== undefined }
}

/** Loads the bundle (from its cache when V8 takes it); undefined when there is no current bundle. */
export function loadBundle(argv: readonly string[]): CliModule | undefined {
  if (!bundleIsCurrent()) return undefined
  const cachePath = cachePathFor(argv)
  const compiled = compileBundle(cachePath)
  if (compiled === undefined) return undefined
  const { script, hadCache } = compiled
  const wrapper = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void
  const module = { exports: {} }
  wrapper.call(
    module.exports,
    module.exports,
    Module.createRequire(BUNDLE_PATH),
    module,
    BUNDLE_PATH,
    dirname(BUNDLE_PATH),
  )
  if (!hadCache || script.cachedDataRejected === true) {
    let saved = false
    const save = (): void => {
      if (saved) return
      saved = true
      saveCache(script, cachePath)
    }
    setTimeout(save, SAVE_AFTER_MS).unref()
    process.once('exit', save)
  }
  return module.exports as CliModule
}

export function main(argv: readonly string[]): void {
  const cli = loadBundle(argv) ?? (require('./main.js') as CliModule)
  void cli.main(argv)
}
