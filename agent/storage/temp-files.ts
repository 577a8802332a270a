// The temp file a replacement is written to before it is renamed over the file: `.<name>.<pid>.tmp`
// beside it, hidden, and named after the process writing it, so two processes never share one and
// a leftover says whose it was. Which leftovers a crash left behind, and may go (staleTemp):
//
//   1. `<name>.tmp`, the temp name of earlier versions: stale (nothing writes it any more).
//   2. `.<name>.<pid>.tmp` of this process: not stale (a write of ours may be under way).
//   3. `.<name>.<pid>.tmp` of another process that is running: not stale (its write may be under way).
//   4. `.<name>.<pid>.tmp` of a process that is gone: stale (it died between write and rename).
//   5. Any other name, another file's temps included: not a temp of this file.
import { readdirSync, rmSync } from 'node:fs'
import { readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

export function tempPathOf(file: string, pid: number = process.pid): string {
  return join(dirname(file), `.${basename(file)}.${pid}.tmp`)
}

/** Whether `name`, found in the directory of the file named `fileName`, is a temp of it to delete. */
export function staleTemp(name: string, fileName: string, self: number, running: (pid: number) => boolean): boolean {
  if (name === `${fileName}.tmp`) return true
  const prefix = `.${fileName}.`
  if (!name.startsWith(prefix) || !name.endsWith('.tmp')) return false
  const pid = name.slice(prefix.length, -'.tmp'.length)
  if (!/^\d+$/.test(pid)) return false
  return Number(pid) !== self && !running(Number(pid))
}

/** Signal 0 checks that a process exists; EPERM means it does, under another user. */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function staleIn(names: readonly string[], file: string): string[] {
  const fileName = basename(file)
  return names.filter((name) => staleTemp(name, fileName, process.pid, processRunning))
}

/** Deletes the temps of `file` that crashes left behind. A directory that cannot be listed has none. */
export function removeStaleTemps(file: string): void {
  let names: string[]
  try {
    names = readdirSync(dirname(file))
  } catch {
    return
  }
  for (const name of staleIn(names, file)) rmSync(join(dirname(file), name), { force: true })
}

export async function removeStaleTempsAsync(file: string): Promise<void> {
  const names = await readdir(dirname(file)).catch(() => [] as string[])
  for (const name of staleIn(names, file)) await rm(join(dirname(file), name), { force: true })
}
