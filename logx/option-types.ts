// The shapes shared by the option checks (options.ts) and the modules they configure
// (async-context.ts, log-method.ts...). A leaf: it imports nothing, so those modules can all
// import it without importing each other.

/**
 * A value serializer: the user's function, called with whatever the user logged under its key.
 * pino types it `(value: any) => any`, and apps rely on it: an untyped `(user) => user.id` compiles.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pino's contract for user serializers
export type Serializer = (value: any) => unknown
export type Bindings = Record<string, unknown>

export interface Formatters {
  level?: (label: string, value: number) => object
  bindings?: (bindings: Bindings) => Bindings
  log?: (object: Record<string, unknown>) => Record<string, unknown>
}

export type LogFn = (...args: unknown[]) => void
// Method syntax again: the hook's `this` is the logger, which the user may type as their own Logger.
export type LogMethodHook = { hook(this: unknown, args: unknown[], method: LogFn, level: number): void }['hook']

export interface Hooks {
  logMethod?: LogMethodHook
  streamWrite?: (line: string) => string
}

/** Picks the bindings out of a store the user's own code filled: an untyped `(store) => ...` must compile. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the store is the user's, of a type logx cannot know
export type StoreSelector = (store: any) => Bindings | null | undefined

export interface AsyncContextOptions {
  /** An AsyncLocalStorage (or anything with its `getStore()`). */
  storage: { getStore(): unknown }
  /** Picks the bindings out of the store; without it the store itself is the bindings object. */
  bindings?: StoreSelector
}
