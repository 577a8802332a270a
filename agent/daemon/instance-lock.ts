// One agent per state directory: two agents on one checkpoint and one outbox would both page and
// each overwrite the other's offsets. The lock is a file holding the owner's pid, created with
// O_EXCL; a lock whose pid is gone (the owner was SIGKILLed) is stale and taken over.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import { DaemonError, DaemonErrorCodes } from './errors'

export interface InstanceLock {
  readonly path: string
  release(): void
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function ownerOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

export function acquireInstanceLock(stateDir: string): InstanceLock {
  try {
    mkdirSync(stateDir, { recursive: true })
  } catch (err) {
    throw new DaemonError(
      DaemonErrorCodes.STATE,
      `cannot create state directory ${stateDir}: ${(err as Error).message}`,
      { cause: err },
    )
  }
  const path = join(stateDir, 'agent.lock')
  // Two tries: the second after removing a stale lock (another starter may win that race; fine).
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, `${process.pid}\n`)
      closeSync(fd)
      let released = false
      return {
        path,
        release() {
          if (released) return
          released = true
          if (ownerOf(path) === process.pid) rmSync(path, { force: true })
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DaemonError(DaemonErrorCodes.STATE, `cannot create lock file ${path}: ${(err as Error).message}`, {
          cause: err,
        })
      }
      const owner = ownerOf(path)
      if (owner !== undefined && owner !== process.pid && alive(owner)) {
        throw new DaemonError(
          DaemonErrorCodes.LOCKED,
          `another logx-agent (pid ${owner}) is already running on state directory ${stateDir}; ` +
            'stop it first, or give this one another state_dir',
        )
      }
      rmSync(path, { force: true })
    }
  }
  throw new DaemonError(DaemonErrorCodes.LOCKED, `could not take the lock ${path}: another agent keeps taking it`)
}
