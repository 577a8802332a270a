// Flush streams when the process ends without keeping them alive: each registration holds the
// stream through a WeakRef, and a FinalizationRegistry drops registrations of collected streams.
// 'beforeExit' still has an event loop (async flush is possible); 'exit' does not (sync only).

export type ExitEvent = 'exit' | 'beforeExit'
export type ExitHandler<T extends object> = (target: T, event: ExitEvent) => void

interface Registration {
  ref: WeakRef<object>
  handler: ExitHandler<object>
}

const registrations = new Set<Registration>()
const byTarget = new WeakMap<object, Registration>()
const finalizer = new FinalizationRegistry<Registration>((registration) => {
  registrations.delete(registration)
  syncProcessListeners()
})

let listening = false

function run(event: ExitEvent): void {
  for (const registration of [...registrations]) {
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
}

/** Calls `handler(target, event)` on process 'beforeExit' and 'exit' while `target` is alive. */
export function registerExitHandler<T extends object>(target: T, handler: ExitHandler<T>): void {
  if (byTarget.has(target)) return
  const registration: Registration = { ref: new WeakRef(target), handler: handler as ExitHandler<object> }
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
