// The inotify watches discovery holds, one per path: every directory a pattern can reach, for the
// names that come and go in it, and every matching file, for its content (through a symlink too,
// which its directory's watch does not see). Which paths to watch comes from discovery's scans;
// this module only opens and closes Node's own fs.watch handles and says what they report.

import { watch, type FSWatcher } from 'node:fs'

export type WatchKind = 'dir' | 'file'

export interface WatchSetOptions {
  /** A raw event of a watch: 'rename' (a name came, went or was replaced), 'change' (content, metadata). */
  readonly onEvent: (kind: WatchKind, watched: string, event: string, name: string | null) => void
  /** A watch that failed after it was opened, for a reason other than its path being gone or unreadable. */
  readonly onError: (path: string, error: Error) => void
}

export interface SyncResult {
  /**
   * Paths not watched because they are gone (a file renamed away between the scan and now, a
   * symlink whose target is being replaced), for a later try.
   */
  readonly gone: string[]
  /** The first watch that could not be opened for another reason (ENOSPC: the inotify watch limit). */
  readonly failure: { readonly path: string; readonly error: Error } | undefined
}

export interface WatchSet {
  /** Watches exactly these directories and files from now on: opens what is new, closes what is not listed. */
  sync(dirs: ReadonlySet<string>, files: ReadonlySet<string>): SyncResult
  /** Closes the watch of `path`: its name may now be another file or directory, which the next sync watches. */
  forget(path: string): void
  /** True when `path` has a file watch of its own (its directory's 'change' events add nothing). */
  watchesFile(path: string): boolean
  closeAll(): void
}

/** Errors that mean "not watchable here", not a fault worth a warning: the scan decides again. */
const QUIET = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM'])

/** A SyncResult while it is made. */
type Progress = { gone: string[]; failure: SyncResult['failure'] }

export function createWatchSet(options: WatchSetOptions): WatchSet {
  const dirs = new Map<string, FSWatcher>()
  const files = new Map<string, FSWatcher>()

  /** undefined when watched (or not watchable for a quiet reason), else why not. */
  function open(kind: WatchKind, path: string, into: Map<string, FSWatcher>): 'gone' | Error | undefined {
    let watcher: FSWatcher
    try {
      watcher = watch(path, { persistent: true }, (event, name) =>
        options.onEvent(kind, path, event, typeof name === 'string' ? name : null),
      )
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? ''
      if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone'
      return QUIET.has(code) ? undefined : (error as Error)
    }
    watcher.on('error', (error) => {
      // The path was deleted under the watch (or is no longer readable): drop it; a scan decides.
      if (into.get(path) === watcher) into.delete(path)
      watcher.close()
      const code = (error as NodeJS.ErrnoException).code ?? ''
      if (!QUIET.has(code)) options.onError(path, error)
    })
    into.set(path, watcher)
    return undefined
  }

  function reconcile(
    kind: WatchKind,
    into: Map<string, FSWatcher>,
    wanted: ReadonlySet<string>,
    result: Progress,
  ): void {
    for (const [path, watcher] of into) {
      if (wanted.has(path)) continue
      watcher.close()
      into.delete(path)
    }
    for (const path of wanted) {
      // After one failure (the watch limit), trying the rest would only fail the same way.
      if (into.has(path) || result.failure !== undefined) continue
      const outcome = open(kind, path, into)
      if (outcome === 'gone') result.gone.push(path)
      else if (outcome !== undefined) result.failure = { path, error: outcome }
    }
  }

  return {
    sync(wantedDirs, wantedFiles) {
      const result: Progress = { gone: [], failure: undefined }
      reconcile('dir', dirs, wantedDirs, result)
      reconcile('file', files, wantedFiles, result)
      return result
    },
    forget(path) {
      for (const into of [files, dirs]) {
        into.get(path)?.close()
        into.delete(path)
      }
    },
    watchesFile(path) {
      return files.has(path)
    },
    closeAll() {
      for (const watcher of dirs.values()) watcher.close()
      for (const watcher of files.values()) watcher.close()
      dirs.clear()
      files.clear()
    },
  }
}
