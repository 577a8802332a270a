// Flush streams when the process ends without keeping them alive: each registration holds the
// stream through a WeakRef, and a FinalizationRegistry drops registrations of collected streams.
// 'beforeExit' still has an event loop (async flush is possible); 'exit' does not (sync only).
//
// SIGTERM and SIGINT end a Node process without 'exit' when nobody listens for them, so whatever a
// transport's worker still held (an alert on its way) was lost on `kill`, Ctrl-C, `pm2 stop` or a
// container stop. Registrations that ask for it (transports) therefore get a listener on both
// signals while they live: when the app has no listener of its own, it ends them as 'exit' does and
// raises the signal again with the default action, so the process still dies of that signal (same
// exit status, no 'exit' event). An app with its own listener keeps full control.
import { isMainThread } from './main-thread'

export type ExitEvent = 'exit' | 'beforeExit'
export type ExitHandler<T extends object> = (target: T, event: ExitEvent) => void

export interface ExitHandlerOptions {
  /** Also flush (as on 'exit') on SIGTERM/SIGINT when the app does not listen for them itself. */
  signals?: boolean
}

interface Registration {
  ref: WeakRef<object>
  handler: ExitHandler<object>
  signals: boolean
}

/** The signals whose default action ends the process and that process managers send to stop it. */
export const flushSignals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT']

const registrations = new Set<Registration>()
const byTarget = new WeakMap<object, Registration>()
const finalizer = new FinalizationRegistry<Registration>((registration) => {
  registrations.delete(registration)
  syncProcessListeners()
})

let listening = false
let listeningToSignals = false

function run(event: ExitEvent, onlySignals = false): void {
  for (const registration of [...registrations]) {
    if (onlySignals && !registration.signals) continue
    const target = registration.ref.deref()
    if (target === undefined) continue
    try {
      registration.handler(target, event)
    } catch {
      // A failing flush must not stop the others from flushing.
    }
  }
}

const onExit = (): void => run('exit')
const onBeforeExit = (): void => run('beforeExit')

function onSignal(signal: NodeJS.Signals): void {
  // Another listener means the app handles the signal (and exits when it wants, which runs 'exit').
  if (process.listenerCount(signal) > 1) return
  // Only what asked for it: an asynchronous destination's flush could wait on a stalled reader for
  // ever, where a transport's end is bounded (thread-stream gives up after 10 s).
  run('exit', true)
  stopSignalListeners()
  // No listener left: the signal's default action ends the process, as it would have without us.
  process.kill(process.pid, signal)
}

function stopSignalListeners(): void {
  for (const signal of flushSignals) process.removeListener(signal, onSignal)
  listeningToSignals = false
}

function wantsSignals(): boolean {
  // Signals are only delivered to the main thread.
  for (const registration of registrations) if (registration.signals) return isMainThread()
  return false
}

function syncProcessListeners(): void {
  if (registrations.size > 0 && !listening) {
    process.on('exit', onExit)
    process.on('beforeExit', onBeforeExit)
    listening = true
  } else if (registrations.size === 0 && listening) {
    process.removeListener('exit', onExit)
    process.removeListener('beforeExit', onBeforeExit)
    listening = false
  }
  const signals = wantsSignals()
  if (signals && !listeningToSignals) {
    // First in line, so the count above still sees an app's process.once() listener (emit removes
    // a once listener before calling it).
    for (const signal of flushSignals) process.prependListener(signal, onSignal)
    listeningToSignals = true
  } else if (!signals && listeningToSignals) {
    stopSignalListeners()
  }
}

/** Calls `handler(target, event)` on process 'beforeExit' and 'exit' while `target` is alive. */
export function registerExitHandler<T extends object>(
  target: T,
  handler: ExitHandler<T>,
  options: ExitHandlerOptions = {},
): void {
  if (byTarget.has(target)) return
  const registration: Registration = {
    ref: new WeakRef(target),
    handler: handler as ExitHandler<object>,
    signals: options.signals === true,
  }
  registrations.add(registration)
  byTarget.set(target, registration)
  finalizer.register(target, registration, registration)
  syncProcessListeners()
}

/** Stops calling the handler registered for `target`. */
export function unregisterExitHandler(target: object): void {
  const registration = byTarget.get(target)
  if (registration === undefined) return
  registrations.delete(registration)
  byTarget.delete(target)
  finalizer.unregister(registration)
  syncProcessListeners()
}
