// Whether this is the process's main thread, asked of node:worker_threads only when a stream needs to
// know: that module and the stream machinery it brings cost 0.4 MB of memory in an app (or the
// alerting agent) that never starts a worker and whose destinations are synchronous.
let mainThread: boolean | undefined

export function isMainThread(): boolean {
  mainThread ??= (require('node:worker_threads') as typeof import('node:worker_threads')).isMainThread
  return mainThread
}
