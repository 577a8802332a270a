// An outbox's options checked and defaulted once, and the store it keeps its items in opened.
import { DEFAULT_OUTBOX_BACKOFF } from './backoff'
import type { DeadLetter, OutboxItem } from './item'
import { OutboxError, OutboxErrorCodes } from './errors'
import type { FailurePolicy } from './schedule'
import { createFileStore, createMemoryStore, type OutboxStore } from './store'
import type { OutboxOptions } from './types'

const DEFAULT_MAX_AGE_MS = 6 * 60 * 60 * 1000
const DEFAULT_MEMORY_ITEMS = 1000
const DEFAULT_CONCURRENCY = 16
const DEFAULT_MAX_DEAD_LETTERS = 100

export interface OutboxSettings {
  policy: FailurePolicy
  memoryItems: number
  concurrency: number
  maxDeadLetters: number
  now: () => number
  onDead: (letter: DeadLetter) => void
  onError: (err: Error) => void
}

function positive(value: number | undefined, fallback: number, path: string): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < 1) {
    throw new OutboxError(OutboxErrorCodes.INVALID_OPTION, `${path}: expected a number >= 1, got ${value}`, { path })
  }
  return value
}

export function settingsOf(options: OutboxOptions): OutboxSettings {
  return {
    policy: {
      maxAttempts: positive(options.maxAttempts, Infinity, 'outbox.maxAttempts'),
      maxAgeMs: positive(options.maxAgeMs, DEFAULT_MAX_AGE_MS, 'outbox.maxAgeMs'),
      retryAmbiguous: options.retryAmbiguous ?? true,
      backoff: { ...DEFAULT_OUTBOX_BACKOFF, ...options.backoff },
      random: options.random ?? Math.random,
    },
    memoryItems: positive(options.memoryItems, DEFAULT_MEMORY_ITEMS, 'outbox.memoryItems'),
    concurrency: positive(options.concurrency, DEFAULT_CONCURRENCY, 'outbox.concurrency'),
    maxDeadLetters: options.maxDeadLetters ?? DEFAULT_MAX_DEAD_LETTERS,
    now: options.now ?? Date.now,
    onDead: options.onDead ?? (() => {}),
    onError: options.onError ?? (() => {}),
  }
}

/** The store, with what a previous run left pending in memory. */
export function openQueueStore(
  options: OutboxOptions,
  settings: OutboxSettings,
): { store: OutboxStore; loaded: OutboxItem[] } {
  const store =
    options.path === undefined
      ? createMemoryStore()
      : createFileStore(options.path, {
          maxSegmentBytes: options.spillSegmentBytes,
          onError: (err) => settings.onError(err),
          owner: options.owner,
        })
  try {
    return { store, loaded: store.load() }
  } catch (err) {
    // An outbox that cannot start holds no journal: the file stays free for another try.
    store.close()
    throw err
  }
}
