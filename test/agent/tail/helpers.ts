import { afterEach } from 'vitest'
import { tempDir } from '../../helpers/temp-dir'
import { createTailer, type LineBatch, type Tailer, type TailerOptions } from '../../../agent/tail'

export interface SeenLine {
  readonly fileId: string
  readonly generation: number
  readonly path: string | undefined
  readonly text: string
  readonly offset: number
  readonly truncated: boolean
}

/**
 * Temp directories and tailers for one test file, each closed or removed after every test (newest
 * first). Call once at the top of the file.
 */
export function useTailerScope(): {
  tempDir(name: string): string
  tail(options: TailerOptions): Promise<Tailer>
  defer(cleanup: () => Promise<void> | void): void
} {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    defer(cleanup) {
      cleanups.push(cleanup)
    },
    tempDir(name) {
      // Removed after the test's afterEach hooks, so the tailers reading it are closed first.
      return tempDir(`tail-${name}`)
    },
    async tail(options) {
      const tailer = await createTailer({ pollIntervalMs: 25, ...options })
      cleanups.push(() => tailer.close())
      return tailer
    },
  }
}

/** Consumes the tailer in the background, recording every line; commits each batch unless told not to. */
export function collect(tailer: Tailer, options: { commit?: boolean } = {}): { seen: SeenLine[]; done: Promise<void> } {
  const seen: SeenLine[] = []
  const done = (async () => {
    for await (const batch of tailer) {
      for (const line of batch.lines) {
        seen.push({
          fileId: batch.fileId,
          generation: batch.generation,
          path: batch.path,
          text: line.data.toString('latin1'),
          offset: line.offset,
          truncated: line.truncated,
        })
      }
      if (options.commit !== false) await tailer.commit(batch)
    }
  })()
  return { seen, done }
}

/** A numbered line, long enough that a handful of them fill the fingerprint's head. */
export function numbered(tag: string, n: number): string {
  return `${tag} ${String(n).padStart(6, '0')} ${'.'.repeat(40)}\n`
}

export function numberedRange(tag: string, from: number, to: number): string {
  let text = ''
  for (let n = from; n <= to; n++) text += numbered(tag, n)
  return text
}

export function numberOf(text: string): number {
  const match = /(\d{6})/.exec(text)
  if (match === null) throw new Error(`no number in ${JSON.stringify(text)}`)
  return Number(match[1])
}

/** Every number from..to exactly once across `lines`, and ascending within each file generation. */
export function expectEachOnceInOrder(lines: readonly SeenLine[], from: number, to: number): void {
  const counts = new Map<number, number>()
  const lastPerFile = new Map<string, number>()
  for (const line of lines) {
    const n = numberOf(line.text)
    counts.set(n, (counts.get(n) ?? 0) + 1)
    const key = `${line.fileId}#${line.generation}`
    const last = lastPerFile.get(key) ?? -1
    if (n <= last) throw new Error(`line ${n} after ${last} in ${key}`)
    lastPerFile.set(key, n)
  }
  const missing: number[] = []
  const repeated: number[] = []
  for (let n = from; n <= to; n++) {
    const count = counts.get(n) ?? 0
    if (count === 0) missing.push(n)
    if (count > 1) repeated.push(n)
  }
  if (missing.length > 0 || repeated.length > 0) {
    throw new Error(
      `missing ${JSON.stringify(missing.slice(0, 20))} (${missing.length}), repeated ${JSON.stringify(repeated.slice(0, 20))} (${repeated.length})`,
    )
  }
  if (counts.size !== to - from + 1)
    throw new Error(`unexpected numbers: ${[...counts.keys()].filter((n) => n < from || n > to).slice(0, 10)}`)
}

/** The tailer's first batch (the iteration stops there; the tailer stays open). */
export async function firstBatch(tailer: Tailer): Promise<LineBatch> {
  for await (const batch of tailer) return batch
  throw new Error('the tailer ended without a batch')
}
