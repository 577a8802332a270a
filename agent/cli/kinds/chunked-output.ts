// Output gathered into large writes: `--per-line` answers a million lines with a million ids, and a
// write per id would cost more than mining them. A stream that says it is full (write() false, as
// process.stdout does on a slow pipe) is waited for before the next chunk, so memory stays bounded.

interface Writable {
  write(text: string): unknown
  once?(event: 'drain', listener: () => void): unknown
}

export interface ChunkedOutput {
  push(text: string): void
  /** Writes what is held when it is a chunk's worth, waiting for a full stream to drain. */
  flushIfFull(): Promise<void>
  /** Writes everything held. */
  flush(): Promise<void>
}

export const CHUNK_CHARS = 1 << 20

export function createChunkedOutput(stream: Writable, chunkChars = CHUNK_CHARS): ChunkedOutput {
  let held: string[] = []
  let size = 0
  const flush = async (): Promise<void> => {
    if (size === 0) return
    const text = held.join('')
    held = []
    size = 0
    const accepted = stream.write(text)
    if (accepted === false && stream.once !== undefined) {
      const once = stream.once.bind(stream)
      await new Promise<void>((resolve) => once('drain', resolve))
    }
  }
  return {
    push(text) {
      held.push(text)
      size += text.length
    },
    flushIfFull: () => (size >= chunkChars ? flush() : Promise.resolve()),
    flush,
  }
}
