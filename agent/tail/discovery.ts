// Finds the files that match the patterns and reports what happens to them by path. Each pattern
// is split into a base directory and a matcher (glob.ts). Node's fs.watch (inotify on Linux) watches
// every directory a pattern can reach, for the names that come and go in it, and every matching
// file, for its content (watch-set.ts). Scans (readdir) turn names into 'add' and 'unlink' and say
// what to watch. A write to a file reads no directory: only a name that came, went or was replaced
// starts a scan.
//
// A flood of file events starves the whole process: libuv reads the inotify queue until it is
// empty before it runs anything else, so a writer filling several files faster than their events
// are handled stops every read, timer and socket of the agent for as long as it writes. When
// events come that fast, the watches are closed and the directories polled instead; watching is
// tried again later, each failed try waiting twice as long.

import { existsSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { monotonicMs } from '../monotonic-clock'
import { compileExclusion, compileGlob, type CompiledGlob } from './glob'
import { createWatchSet, type WatchKind, type WatchSet } from './watch-set'

/** 'rename': the name was moved or replaced (it may now be another file); 'change': its content changed. */
export type PathEvent = 'add' | 'change' | 'unlink' | 'rename'

export type DiscoveryMode = 'watch' | 'poll'

export interface DiscoveryOptions {
  readonly patterns: readonly string[]
  /** Files no event is reported for, though `patterns` match them (see TailerOptions.exclude). */
  readonly exclude?: readonly string[] | undefined
  readonly cwd: string
  /**
   * Asked before a symlink is reported (a file) or walked into (a directory): false keeps it out, as
   * if it were not there (link-guard.ts). Default: every link is followed.
   */
  readonly admitsLink?: ((path: string) => Promise<boolean>) | undefined
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
/**
 * How soon a scan looks again for what no watch can tell the return of: a matching name gone mid-rotation, a dangling
 * symlink, a missing base directory.
 */
const RETRY_MS = 1_000
/** How deep `**` follows directories (and symlinks to them, which can make a loop). */
const MAX_WALK_LEVELS = 32

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
  /** A scan was asked for while one ran: it runs again once done, to see what the first may have missed. */
  rescan: boolean
  /** The watches while in 'watch' mode; undefined while polling. */
  watches: WatchSet | undefined
  pollTimer: NodeJS.Timeout | undefined
  rewatchTimer: NodeJS.Timeout | undefined
  retryTimer: NodeJS.Timeout | undefined
  /** How long the next stretch of polling lasts before watching is tried again. */
  rewatchMs: number
}

/** Resolves once the initial scan is done: every file present at startup has been reported as 'add'. */
export async function createDiscovery(options: DiscoveryOptions): Promise<Discovery> {
  const globs = options.patterns.map((pattern) => compileGlob(pattern, options.cwd))
  const excluded = compileExclusion(options.exclude ?? [], options.cwd)
  // Every path the tailer hears of passes here (events and scans): an excluded file is never
  // reported, so it is never opened, whenever it appears.
  const matches =
    excluded === undefined
      ? (path: string): boolean => globs.some((glob) => glob.matches(path))
      : (path: string): boolean => globs.some((glob) => glob.matches(path)) && !excluded(path)
  const bases = [...new Set(globs.map((glob) => glob.base))]
  const depth = maxDepth(globs)
  for (const base of bases) {
    // Not fatal (an app may make its log directory after the agent starts), but a typo looks the same.
    if (!existsSync(base))
      options.onError(
        new Error(
          `directory ${base} does not exist: it is looked for every second, ` +
            'and its files are read from when it appears',
        ),
      )
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
    rescan: false,
    watches: undefined,
    pollTimer: undefined,
    rewatchTimer: undefined,
    retryTimer: undefined,
    rewatchMs: FIRST_REWATCH_MS,
  }
  await startWatching(state)
  return {
    async close() {
      state.closed = true
      clearInterval(state.pollTimer)
      clearTimeout(state.rewatchTimer)
      clearTimeout(state.retryTimer)
      state.watches?.closeAll()
      state.watches = undefined
    },
  }
}

function emit(state: DiscoveryState, event: PathEvent, path: string): void {
  if (event === 'add') state.present.add(path)
  else if (event === 'unlink') state.present.delete(path)
  state.options.onEvent(event, path)
}

/** Watches the bases, then scans: a name that comes while the scan reads asks for another scan. */
function startWatching(state: DiscoveryState): Promise<void> {
  const watches = createWatchSet({
    onEvent: (kind, watched, event, name) => {
      // Events still queued when a flood closed these watches are dropped: the scans cover them.
      if (state.watches === watches && !state.closed) onWatchEvent(state, watches, kind, watched, event, name)
    },
    onError: (path, error) => {
      if (!state.closed) state.options.onError(new Error(`cannot watch ${path}: ${error.message}`))
    },
  })
  state.watches = watches
  watches.sync(new Set(state.bases), new Set())
  return scan(state)
}

function onWatchEvent(
  state: DiscoveryState,
  watches: WatchSet,
  kind: WatchKind,
  watched: string,
  event: string,
  name: string | null,
): void {
  const flooded = state.flood.count()
  if (flooded !== undefined) {
    startPolling(state, flooded)
    return
  }
  const { matches, options } = state
  if (kind === 'file') {
    if (event === 'rename') {
      // Moved or deleted (through a symlink too): what the path names now is for a scan to find.
      watches.forget(watched)
      options.onEvent('rename', watched)
      void scan(state)
    } else {
      options.onEvent('change', watched)
    }
    return
  }
  if (name === null) {
    void scan(state)
    return
  }
  const path = join(watched, name)
  if (event === 'rename') {
    // The name came, went or now names another file or directory: its old watch goes, a scan
    // watches what is there now and reports what came and went.
    watches.forget(path)
    if (matches(path)) options.onEvent('rename', path)
    void scan(state)
  } else if (!watches.watchesFile(path) && matches(path)) {
    // A file with a watch of its own has reported this write already.
    options.onEvent('change', path)
  }
}

/** `cause`: a flood of events (told through onModeChange), or a watch the system refused (an error). */
function startPolling(state: DiscoveryState, reason: string, cause: 'flood' | 'refused' = 'flood'): void {
  const closing = state.watches
  state.watches = undefined
  state.mode = 'poll'
  // Closing the watches from inside their own event is what lets libuv's inotify loop end.
  closing?.closeAll()
  clearTimeout(state.retryTimer)
  state.retryTimer = undefined
  const told = `${reason}: polling every ${POLL_MS} ms, watching again in ${state.rewatchMs / 1000} s`
  if (cause === 'flood') state.options.onModeChange?.('poll', told)
  else state.options.onError(new Error(told))
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
  // Its scan reports what happened since the last poll.
  await startWatching(state)
  if (state.mode !== 'watch' || state.closed) return
  state.options.onModeChange?.('watch', 'file events calmed down')
  // A watch that holds for a while earns the short retry back.
  state.rewatchTimer = setTimeout(() => {
    if (state.mode === 'watch') state.rewatchMs = FIRST_REWATCH_MS
  }, MAX_REWATCH_MS)
  state.rewatchTimer.unref()
}

/** One scan at a time; asked for during one, it runs once more after it. */
async function scan(state: DiscoveryState): Promise<void> {
  if (state.closed) return
  if (state.scanning) {
    state.rescan = true
    return
  }
  state.scanning = true
  try {
    do {
      state.rescan = false
      const found = new Set<string>()
      const walked: Walked = { dirs: new Set<string>(), dangling: false, missingBase: false }
      const admitsLink = state.options.admitsLink ?? (() => Promise.resolve(true))
      const reach: Reach = { depth: state.depth, matches: state.matches, admitsLink, found, walked }
      for (const base of state.bases) await walk(base, 0, reach)
      if (state.closed) return
      // The tailer checks each of these against the path as it is then (path-tracker.ts): a listing
      // can be older than the events already handled.
      for (const path of state.present) if (!found.has(path)) emit(state, 'unlink', path)
      for (const path of found) {
        if (!state.present.has(path)) emit(state, 'add', path)
        // A replaced file (rename-and-create) keeps its path: the tailer's stat tells it apart.
        else if (state.mode === 'poll') state.options.onEvent('change', path)
      }
      const synced = state.watches?.sync(walked.dirs, found)
      if (synced?.failure !== undefined) {
        // Most often the inotify watch limit (fs.inotify.max_user_watches): polled instead, with one
        // warning, and watching tried again later as after a flood.
        startPolling(state, `cannot watch ${synced.failure.path}: ${synced.failure.error.message}`, 'refused')
        continue
      }
      if ((synced !== undefined && synced.gone.length > 0) || walked.dangling || walked.missingBase) retrySoon(state)
    } while (state.rescan && !state.closed)
  } catch (error) {
    state.options.onError(error instanceof Error ? error : new Error(String(error)))
  } finally {
    state.scanning = false
  }
}

/**
 * A matching name that could not be watched (renamed away between the scan and its watch), a
 * symlink whose target is missing (a container runtime replacing the log it points to), a base
 * directory not made yet or removed: nothing would tell when it is back, so a scan looks again soon.
 */
function retrySoon(state: DiscoveryState): void {
  if (state.retryTimer !== undefined || state.mode !== 'watch' || state.closed) return
  state.retryTimer = setTimeout(() => {
    state.retryTimer = undefined
    void scan(state)
  }, RETRY_MS)
}

interface Walked {
  /** The directories read: the ones to watch. */
  readonly dirs: Set<string>
  /** A symlink that points nowhere (yet) was passed over. */
  dangling: boolean
  /** A base directory is not there. */
  missingBase: boolean
}

/** What one scan's walk looks for and where it puts what it found. */
interface Reach {
  readonly depth: number | undefined
  readonly matches: (path: string) => boolean
  readonly admitsLink: (path: string) => Promise<boolean>
  readonly found: Set<string>
  readonly walked: Walked
}

/** Adds the matching files under `dir` (down to `reach.depth` levels below the base) to `reach.found`. */
async function walk(dir: string, level: number, reach: Reach): Promise<void> {
  const { depth, matches, found, walked } = reach
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    if (level === 0 && (error as NodeJS.ErrnoException).code === 'ENOENT') walked.missingBase = true
    return
  }
  walked.dirs.add(dir)
  const deeper = depth === undefined ? level < MAX_WALK_LEVELS : level < depth
  for (const entry of entries) {
    const path = join(dir, entry.name)
    let isDirectory = entry.isDirectory()
    if (entry.isSymbolicLink()) {
      // Followed, as a file or a directory, whichever it points to, where followSymlinks allows.
      try {
        isDirectory = (await stat(path)).isDirectory()
      } catch {
        if (matches(path)) walked.dangling = true
        continue
      }
      if ((isDirectory ? deeper : matches(path)) && !(await reach.admitsLink(path))) continue
    }
    if (isDirectory) {
      if (deeper) await walk(path, level + 1, reach)
    } else if (matches(path)) {
      found.add(path)
    }
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

function maxDepth(globs: readonly CompiledGlob[]): number | undefined {
  let depth = 0
  for (const glob of globs) {
    if (glob.depth === undefined) return undefined
    depth = Math.max(depth, glob.depth)
  }
  return depth
}
