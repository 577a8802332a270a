// The I/O half of detect-machine.ts: lists the places it names and looks for journalctl on the PATH.
// Every root is injectable, so tests stand a temp directory in for HOME, /var/lib/docker and /var/log.
import { accessSync, constants, readdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { candidatePlaces, type MachineFacts, type MachineRoots } from './detect-machine'

/** The entries of a directory, or undefined when it is missing or unreadable (an unreadable one is no offer). */
function list(dir: string): string[] | undefined {
  try {
    return readdirSync(dir)
  } catch {
    return undefined
  }
}

/** Whether an executable `name` is in one of PATH's directories. */
export function onPath(name: string, pathVariable: string | undefined): boolean {
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (dir === '') continue
    try {
      accessSync(join(dir, name), constants.X_OK)
      return true
    } catch {
      // not in this one
    }
  }
  return false
}

export function probeMachine(env: Readonly<Record<string, string | undefined>>, roots: MachineRoots): MachineFacts {
  const listings = new Map<string, readonly string[]>()
  for (const place of candidatePlaces(env, roots)) {
    const entries = list(place)
    if (entries !== undefined) listings.set(place, entries)
  }
  return { listings, hasJournalctl: onPath('journalctl', env.PATH) }
}
