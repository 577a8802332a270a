// Finds the files that match the patterns and reports what happens to them by path. chokidar 4
// has no globs: it watches each pattern's base directory (inotify on Linux, no timers) and the
// `ignored` filter keeps it from watching files no pattern wants.

import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import { compileGlob, type CompiledGlob } from './glob'

/** 'rename': the name was moved or replaced (it may now be another file); 'change': its content changed. */
export type PathEvent = 'add' | 'change' | 'unlink' | 'rename'

export interface DiscoveryOptions {
  readonly patterns: readonly string[]
  readonly cwd: string
  readonly onEvent: (event: PathEvent, path: string) => void
  readonly onError: (error: Error) => void
}

export interface Discovery {
  close(): Promise<void>
}

/** Resolves once the initial scan is done: every file present at startup has been reported as 'add'. */
export async function createDiscovery(options: DiscoveryOptions): Promise<Discovery> {
  const globs = options.patterns.map((pattern) => compileGlob(pattern, options.cwd))
  const matches = (path: string): boolean => globs.some((glob) => glob.matches(path))
  const bases = [...new Set(globs.map((glob) => glob.base))]
  for (const base of bases) {
    // chokidar would wait on a missing directory silently and never report what appears in it.
    if (!existsSync(base)) options.onError(new Error(`directory ${base} does not exist: nothing under it is tailed until the tailer is restarted`))
  }
  const watcher: FSWatcher = watch(bases, {
    persistent: true,
    ignoreInitial: false,
    followSymlinks: true,
    depth: maxDepth(globs),
    ignored: (path, stats) => stats?.isFile() === true && !matches(path),
    ignorePermissionErrors: true,
  })
  const report = (event: PathEvent) => (path: string) => {
    if (matches(path)) options.onEvent(event, path)
  }
  watcher.on('add', report('add'))
  watcher.on('change', report('change'))
  watcher.on('unlink', report('unlink'))
  // chokidar drops a file's 'change' events that come within 5 ms of the previous one, and the
  // last write of a burst must not wait for the scheduler tick: the raw fs.watch events are all kept.
  watcher.on('raw', (event, name, details) => {
    const watched = (details as { watchedPath?: string } | undefined)?.watchedPath
    if (typeof watched !== 'string' || typeof name !== 'string') return
    const inDirectory = join(watched, name)
    const path = matches(inDirectory) ? inDirectory : basename(watched) === name && matches(watched) ? watched : undefined
    if (path !== undefined) options.onEvent(event === 'rename' ? 'rename' : 'change', path)
  })
  watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))))
  await new Promise<void>((resolve) => watcher.once('ready', resolve))
  return { close: () => watcher.close() }
}

function maxDepth(globs: readonly CompiledGlob[]): number | undefined {
  let depth = 0
  for (const glob of globs) {
    if (glob.depth === undefined) return undefined
    depth = Math.max(depth, glob.depth)
  }
  return depth
}
