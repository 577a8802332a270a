// The shapes shared by the option checks (options.ts) and the modules they configure
// (async-context.ts, log-method.ts...). A leaf: it imports nothing, so those modules can all
// import it without importing each other.

export type Serializer = (value: any) => unknown
export type Bindings = Record<string, unknown>

export interface Formatters {
  level?: (label: string, value: number) => object
  bindings?: (bindings: Bindings) => Bindings
  log?: (object: Record<string, unknown>) => Record<string, unknown>
}

export type LogFn = (...args: unknown[]) => void
export type LogMethodHook = (this: any, args: unknown[], method: LogFn, level: number) => void

export interface Hooks {
  logMethod?: LogMethodHook
  streamWrite?: (line: string) => string
}

export interface AsyncContextOptions {
  /** An AsyncLocalStorage (or anything with its `getStore()`). */
  storage: { getStore(): unknown }
  /** Picks the bindings out of the store; without it the store itself is the bindings object. */
  bindings?: (store: any) => Bindings | null | undefined
}
