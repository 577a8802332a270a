// Reload triggers: a change of the config file (editors often write a new file and rename it over
// the old one, so the directory is watched, not the inode) and SIGHUP. Bursts of events collapse
// into one reload.
import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'

export interface ConfigWatch {
  close(): void
}

export function watchConfigFile(file: string, onChange: () => void, debounceMs = 200): ConfigWatch {
  const path = resolve(file)
  const name = basename(path)
  let timer: NodeJS.Timeout | undefined
  const fire = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      onChange()
    }, debounceMs)
    timer.unref()
  }
  let watcher: FSWatcher | undefined
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) fire()
    })
    // A vanished directory is not a reason to stop the agent; SIGHUP still reloads.
    watcher.on('error', () => watcher?.close())
  } catch {
    watcher = undefined
  }
  return {
    close() {
      if (timer !== undefined) clearTimeout(timer)
      watcher?.close()
    },
  }
}
