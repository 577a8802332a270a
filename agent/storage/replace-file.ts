// A durable file replaced whole, so a reader, the next start after a kill, or the next boot after a
// power cut sees the old content or the new, never a mix and never nothing: the text is written to a
// temp file beside it (temp-files.ts), fsynced, renamed over the file, and the directory is fsynced
// so the rename itself survives. The one way a state file is rewritten (lead map, missed calls,
// run-time silences, checkpoints, journald cursors, journals' compactions).
//
// One replacement of a file at a time: the async form's callers serialize their writes (the temp
// name is per process, not per call). The first replacement of a file in a process deletes the
// temps earlier processes left.
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { fsyncDirOf, fsyncDirOfAsync } from './fsync'
import { removeStaleTemps, removeStaleTempsAsync, tempPathOf } from './temp-files'
import { writeAll } from './write-all'

export interface ReplaceOptions {
  /** Permissions of a file created by the replacement (before the umask); default 0o600. */
  mode?: number
}

// State files are readable by their owner only: they hold phone numbers and log lines.
const DEFAULT_MODE = 0o600

/** Files whose leftover temps this process has already looked for. */
const tidied = new Set<string>()

/** Throws what the file system throws (the file then still holds its old content); callers say which state it was. */
export function replaceFile(file: string, text: string, options: ReplaceOptions = {}): void {
  if (!tidied.has(file)) {
    tidied.add(file)
    removeStaleTemps(file)
  }
  const temp = tempPathOf(file)
  try {
    const fd = openSync(temp, 'w', options.mode ?? DEFAULT_MODE)
    try {
      writeAll(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, file)
  } catch (err) {
    rmSync(temp, { force: true })
    throw err
  }
  fsyncDirOf(file)
}

/** replaceFile() on libuv's threads: the event loop goes on during the fsyncs. */
export async function replaceFileAsync(file: string, text: string, options: ReplaceOptions = {}): Promise<void> {
  if (!tidied.has(file)) {
    tidied.add(file)
    await removeStaleTempsAsync(file)
  }
  const temp = tempPathOf(file)
  try {
    const handle = await open(temp, 'w', options.mode ?? DEFAULT_MODE)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (err) {
    await rm(temp, { force: true })
    throw err
  }
  await fsyncDirOfAsync(file)
}
