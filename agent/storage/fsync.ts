// fsync by path, for files and for the directory that holds them. A rename is durable only once the
// directory is flushed too: until then a power cut may bring back the old name, or none.
import { closeSync, fsyncSync, openSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Codes a platform gives when a directory cannot be opened or flushed at all (Windows, some
 * network file systems): there the rename is as durable as the platform allows. Any other failure
 * (EIO, ENOSPC) is thrown: the write may not have reached the disk.
 */
const CANNOT_FSYNC_DIRECTORY = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EBADF', 'ENOTSUP'])

const isMissing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT'
const cannotFsyncDirectory = (err: unknown): boolean =>
  CANNOT_FSYNC_DIRECTORY.has((err as NodeJS.ErrnoException).code ?? '')

/** fsyncs a file through a descriptor of its own (any descriptor of a file flushes it). */
export function fsyncFile(path: string, options: { missingOk?: boolean } = {}): void {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (err) {
    if (options.missingOk === true && isMissing(err)) return
    throw err
  }
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

export async function fsyncFileAsync(path: string, options: { missingOk?: boolean } = {}): Promise<void> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch (err) {
    if (options.missingOk === true && isMissing(err)) return
    throw err
  }
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** fsyncs the directory that holds `path`: what makes a rename, a creation or a deletion there durable. */
export function fsyncDirOf(path: string): void {
  try {
    fsyncFile(dirname(path))
  } catch (err) {
    if (!cannotFsyncDirectory(err)) throw err
  }
}

export async function fsyncDirOfAsync(path: string): Promise<void> {
  try {
    await fsyncFileAsync(dirname(path))
  } catch (err) {
    if (!cannotFsyncDirectory(err)) throw err
  }
}
