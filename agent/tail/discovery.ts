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
import { monotonicMs } from '../monotonic-clock'
import { compileExclusion, compileGlob, type CompiledGlob } from './glob'

/** 'rename': the name was moved or replaced (it may now be another file); 'change': its content changed. */
export type PathEvent = 'add' | 'change' | 'unlink' | 'rename'

export type DiscoveryMode = 'watch' | 'poll'

export interface DiscoveryOptions {
  readonly patterns: readonly string[]
  /** Files no event is reported for, though `patterns` match them (see TailerOptions.exclude). */
  readonly exclude?: readonly string[] | undefined
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

/** What one discovery holds between events; the functions below take it as their first argument. */
interface DiscoveryState {
  readonly options: DiscoveryOptions
  readonly bases: string[]
  readonly depth: number | undefined
  readonly matches: (path: string) => boolean
  readonly flood: FloodMeter
  /** Matching paths known to exist, so a scan can tell what appeared and what went. */
  readonly present: Set<string>
  mode: DiscoveryMode
  closed: boolean
  scanning: boolean
  watcher: FSWatcher | undefined
  pollTimer: NodeJS.Timeout | undefined
  rewatchTimer: NodeJS.Timeout | undefined
  /** How long the next stretch of polling lasts before watching is tried again. */
  rewatchMs: number
}

/** Resolves once the initial scan is done: every file present at startup has been reported as 'add'. */
export async function createDiscovery(options: DiscoveryOptions): Promise<Discovery> {
  const globs = options.patterns.map((pattern) => compileGlob(pattern, options.cwd))
  const excluded = compileExclusion(options.exclude ?? [], options.cwd)
  // Every path the tailer hears of passes here (events, scans, the watcher's filter): an excluded
  // file is never reported, so it is never opened, whenever it appears.
  const matches = excluded === undefined
    ? (path: string): boolean => globs.some((glob) => glob.matches(path))
    : (path: string): boolean => globs.some((glob) => glob.matches(path)) && !excluded(path)
  const bases = [...new Set(globs.map((glob) => glob.base))]
  const depth = maxDepth(globs)
  for (const base of bases) {
    // chokidar would wait on a missing directory silently and never report what appears in it.
    if (!existsSync(base)) options.onError(new Error(`directory ${base} does not exist: nothing under it is tailed until the tailer is restarted`))
  }

  const state: DiscoveryState = {
    options,
    bases,
    depth,
    matches,
    flood: createFloodMeter(),
    present: new Set<string>(),
    mode: 'watch',
    closed: false,
    scanning: false,
    watcher: undefined,
    pollTimer: undefined,
    rewatchTimer: undefined,
    rewatchMs: FIRST_REWATCH_MS,
  }
  await startWatching(state, true)
  return {
    async close() {
      state.closed = true
      clearInterval(state.pollTimer)
      clearTimeout(state.rewatchTimer)
      await state.watcher?.close()
    },
  }
}

function emit(state: DiscoveryState, event: PathEvent, path: string): void {
  if (event === 'add') state.present.add(path)
  else if (event === 'unlink') state.present.delete(path)
  state.options.onEvent(event, path)
}

function startWatching(state: DiscoveryState, initial: boolean): Promise<void> {
  const { options, matches } = state
  const current: FSWatcher = watch(state.bases, {
    persistent: true,
    ignoreInitial: !initial,
    followSymlinks: true,
    depth: state.depth,
    ignored: (path, stats) => stats?.isFile() === true && !matches(path),
    ignorePermissionErrors: true,
  })
  state.watcher = current
  // Events already queued when the watcher was closed for a flood are dropped: the scans cover them.
  const live = (): boolean => state.watcher === current && !state.closed
  const report = (event: PathEvent) => (path: string) => {
    if (live() && matches(path)) emit(state, event, path)
  }
  current.on('add', report('add'))
  current.on('change', report('change'))
  current.on('unlink', report('unlink'))
  // chokidar drops a file's 'change' events that come within 5 ms of the previous one, and the
  // last write of a burst must not wait for the scheduler tick: the raw fs.watch events are all kept.
  current.on('raw', (event, name, details) => {
    if (!live()) return
    const flooded = state.flood.count()
    if (flooded !== undefined) {
      startPolling(state, flooded)
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

function startPolling(state: DiscoveryState, reason: string): void {
  const flooded = state.watcher
  state.watcher = undefined
  state.mode = 'poll'
  // Closing the watches from inside their own event is what lets libuv's inotify loop end.
  void flooded?.close().catch(() => undefined)
  state.options.onModeChange?.('poll', `${reason}: polling every ${POLL_MS} ms, watching again in ${state.rewatchMs / 1000} s`)
  state.pollTimer = setInterval(() => void scan(state), POLL_MS)
  void scan(state)
  state.rewatchTimer = setTimeout(() => void rewatch(state), state.rewatchMs)
  state.rewatchMs = Math.min(state.rewatchMs * 2, MAX_REWATCH_MS)
}

async function rewatch(state: DiscoveryState): Promise<void> {
  if (state.closed) return
  clearInterval(state.pollTimer)
  state.pollTimer = undefined
  state.flood.reset()
  state.mode = 'watch'
  await startWatching(state, false)
  // What happened between the last scan and the new watches.
  await scan(state)
  if (state.mode !== 'watch' || state.closed) return
  state.options.onModeChange?.('watch', 'file events calmed down')
  // A watch that holds for a while earns the short retry back.
  state.rewatchTimer = setTimeout(() => {
    if (state.mode === 'watch') state.rewatchMs = FIRST_REWATCH_MS
  }, MAX_REWATCH_MS)
  state.rewatchTimer.unref()
}

async function scan(state: DiscoveryState): Promise<void> {
  if (state.scanning || state.closed) return
  state.scanning = true
  try {
    const found = new Set<string>()
    for (const base of state.bases) await walk(base, 0, state.depth, state.matches, found)
    if (state.closed) return
    for (const path of state.present) if (!found.has(path)) emit(state, 'unlink', path)
    for (const path of found) {
      if (!state.present.has(path)) emit(state, 'add', path)
      // A replaced file (rename-and-create) keeps its path: the tailer's stat tells it apart.
      else if (state.mode === 'poll') state.options.onEvent('change', path)
    }
  } finally {
    state.scanning = false
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

interface FloodMeter {
  /** Counts one raw event; says why when it makes a flood. */
  count(): string | undefined
  reset(): void
}

/** Counts raw events; says why when FLOOD_EVENTS of them came within FLOOD_WINDOW_MS. */
function createFloodMeter(): FloodMeter {
  let windowStart = monotonicMs()
  let windowEvents = 0
  const reset = (): void => {
    windowStart = monotonicMs()
    windowEvents = 0
  }
  return {
    count() {
      if (++windowEvents < FLOOD_EVENTS) return undefined
      const elapsed = monotonicMs() - windowStart
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
