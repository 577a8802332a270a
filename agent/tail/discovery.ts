// Finds the files that match the patterns and reports what happens to them by path. chokidar 4
// has no globs: it watches each pattern's base directory (inotify on Linux, no timers) and the
// `ignored` filter keeps it from watching files no pattern wants.
//
// A flood of file events starves the whole process: libuv reads the inotify queue until it is
// empty before it runs anything else, so a writer filling several files faster than their events
// are handled stops every read, timer and socket of the agent for as long as it writes. When
// events come that fast, the watches are closed and the directories polled instead; watching is
// tried again later, each failed try waiting twice as long.

import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import { compileGlob, type CompiledGlob } from './glob'

/** 'rename': the name was moved or replaced (it may now be another file); 'change': its content changed. */
export type PathEvent = 'add' | 'change' | 'unlink' | 'rename'

export type DiscoveryMode = 'watch' | 'poll'

export interface DiscoveryOptions {
  readonly patterns: readonly string[]
  readonly cwd: string
  readonly onEvent: (event: PathEvent, path: string) => void
  readonly onError: (error: Error) => void
  /** Told when a flood of events makes discovery poll the directories, and when it watches again. */
  readonly onModeChange?: ((mode: DiscoveryMode, reason: string) => void) | undefined
}

export interface Discovery {
  close(): Promise<void>
}

/** This many events within FLOOD_WINDOW_MS is a flood. */
const FLOOD_EVENTS = 2000
const FLOOD_WINDOW_MS = 100
/** Period of the directory scan while polling. */
const POLL_MS = 100
const FIRST_REWATCH_MS = 2_000
const MAX_REWATCH_MS = 60_000

/** Resolves once the initial scan is done: every file present at startup has been reported as 'add'. */
export async function createDiscovery(options: DiscoveryOptions): Promise<Discovery> {
  const globs = options.patterns.map((pattern) => compileGlob(pattern, options.cwd))
  const matches = (path: string): boolean => globs.some((glob) => glob.matches(path))
  const bases = [...new Set(globs.map((glob) => glob.base))]
  const depth = maxDepth(globs)
  for (const base of bases) {
    // chokidar would wait on a missing directory silently and never report what appears in it.
    if (!existsSync(base)) options.onError(new Error(`directory ${base} does not exist: nothing under it is tailed until the tailer is restarted`))
  }

  let mode: DiscoveryMode = 'watch'
  let closed = false
  let watcher: FSWatcher | undefined
  let pollTimer: NodeJS.Timeout | undefined
  let rewatchTimer: NodeJS.Timeout | undefined
  let rewatchMs = FIRST_REWATCH_MS
  const flood = createFloodMeter()
  /** Matching paths known to exist, so a scan can tell what appeared and what went. */
  const present = new Set<string>()

  function emit(event: PathEvent, path: string): void {
    if (event === 'add') present.add(path)
    else if (event === 'unlink') present.delete(path)
    options.onEvent(event, path)
  }

  function startWatching(initial: boolean): Promise<void> {
    const current: FSWatcher = watch(bases, {
      persistent: true,
      ignoreInitial: !initial,
      followSymlinks: true,
      depth,
      ignored: (path, stats) => stats?.isFile() === true && !matches(path),
      ignorePermissionErrors: true,
    })
    watcher = current
    // Events already queued when the watcher was closed for a flood are dropped: the scans cover them.
    const live = (): boolean => watcher === current && !closed
    const report = (event: PathEvent) => (path: string) => {
      if (live() && matches(path)) emit(event, path)
    }
    current.on('add', report('add'))
    current.on('change', report('change'))
    current.on('unlink', report('unlink'))
    // chokidar drops a file's 'change' events that come within 5 ms of the previous one, and the
    // last write of a burst must not wait for the scheduler tick: the raw fs.watch events are all kept.
    current.on('raw', (event, name, details) => {
      if (!live()) return
      const flooded = flood.count()
      if (flooded !== undefined) {
        startPolling(flooded)
        return
      }
      const path = rawEventPath((details as { watchedPath?: string } | undefined)?.watchedPath, name, matches)
      if (path !== undefined) options.onEvent(event === 'rename' ? 'rename' : 'change', path)
    })
    current.on('error', (error) => {
      if (live()) options.onError(error instanceof Error ? error : new Error(String(error)))
    })
    return new Promise<void>((resolve) => current.once('ready', resolve))
  }

  function startPolling(reason: string): void {
    const flooded = watcher
    watcher = undefined
    mode = 'poll'
    // Closing the watches from inside their own event is what lets libuv's inotify loop end.
    void flooded?.close().catch(() => undefined)
    options.onModeChange?.('poll', `${reason}: polling every ${POLL_MS} ms, watching again in ${rewatchMs / 1000} s`)
    pollTimer = setInterval(() => void scan(), POLL_MS)
    void scan()
    rewatchTimer = setTimeout(() => void rewatch(), rewatchMs)
    rewatchMs = Math.min(rewatchMs * 2, MAX_REWATCH_MS)
  }

  async function rewatch(): Promise<void> {
    if (closed) return
    clearInterval(pollTimer)
    pollTimer = undefined
    flood.reset()
    mode = 'watch'
    await startWatching(false)
    // What happened between the last scan and the new watches.
    await scan()
    if (mode !== 'watch' || closed) return
    options.onModeChange?.('watch', 'file events calmed down')
    // A watch that holds for a while earns the short retry back.
    rewatchTimer = setTimeout(() => {
      if (mode === 'watch') rewatchMs = FIRST_REWATCH_MS
    }, MAX_REWATCH_MS)
    rewatchTimer.unref()
  }

  let scanning = false
  async function scan(): Promise<void> {
    if (scanning || closed) return
    scanning = true
    try {
      const found = new Set<string>()
      for (const base of bases) await walk(base, 0, depth, matches, found)
      if (closed) return
      for (const path of present) if (!found.has(path)) emit('unlink', path)
      for (const path of found) {
        if (!present.has(path)) emit('add', path)
        // A replaced file (rename-and-create) keeps its path: the tailer's stat tells it apart.
        else if (mode === 'poll') options.onEvent('change', path)
      }
    } finally {
      scanning = false
    }
  }

  await startWatching(true)
  return {
    async close() {
      closed = true
      clearInterval(pollTimer)
      clearTimeout(rewatchTimer)
      await watcher?.close()
    },
  }
}

/** Adds the matching files under `dir` (down to `depth` levels below the base) to `found`. */
async function walk(dir: string, level: number, depth: number | undefined, matches: (path: string) => boolean, found: Set<string>): Promise<void> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() || (entry.isSymbolicLink() && depth !== 0)) {
      if (depth === undefined || level < depth) await walk(path, level + 1, depth, matches, found)
      if (!entry.isSymbolicLink()) continue
    }
    if (matches(path)) found.add(path)
  }
}

/** Counts raw events; says why when FLOOD_EVENTS of them came within FLOOD_WINDOW_MS. */
function createFloodMeter(): { count(): string | undefined; reset(): void } {
  let windowStart = performance.now()
  let windowEvents = 0
  const reset = (): void => {
    windowStart = performance.now()
    windowEvents = 0
  }
  return {
    count() {
      if (++windowEvents < FLOOD_EVENTS) return undefined
      const elapsed = performance.now() - windowStart
      if (elapsed < FLOOD_WINDOW_MS) return `${windowEvents} file events in ${Math.ceil(elapsed)} ms`
      reset()
      return undefined
    },
    reset,
  }
}

/** The matching path a raw fs.watch event is about: an entry of a watched directory, or a watched file itself. */
function rawEventPath(watched: string | undefined, name: unknown, matches: (path: string) => boolean): string | undefined {
  if (typeof watched !== 'string' || typeof name !== 'string') return undefined
  const inDirectory = join(watched, name)
  if (matches(inDirectory)) return inDirectory
  return basename(watched) === name && matches(watched) ? watched : undefined
}

function maxDepth(globs: readonly CompiledGlob[]): number | undefined {
  let depth = 0
  for (const glob of globs) {
    if (glob.depth === undefined) return undefined
    depth = Math.max(depth, glob.depth)
  }
  return depth
}
