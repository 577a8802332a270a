// Where the queue lives. In memory by default; with a path, an append-only journal (one JSON record
// per line) replayed at start and rewritten through a temp file and rename when it has grown well
// past what is still pending. Dead letters go to `<path>.dead`, one JSON object per line.
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { OutboxError, OutboxErrorCodes } from './errors'
import type { DeadLetter, JournalRecord, OutboxItem } from './item'

export interface OutboxStore {
  /** Items still pending from a previous run, in enqueue order. */
  load(): OutboxItem[]
  append(record: JournalRecord): void
  dead(letter: DeadLetter): void
  /** Rewrites the journal to hold just `pending`. */
  compact(pending: readonly OutboxItem[]): void
  /** Journal records written since the last compaction. */
  readonly records: number
}

export function createMemoryStore(): OutboxStore {
  return {
    load: () => [],
    append: () => {},
    dead: () => {},
    compact: () => {},
    records: 0,
  }
}

function journalError(message: string, path: string, cause: unknown): OutboxError {
  return new OutboxError(OutboxErrorCodes.JOURNAL, `${message} ${path}: ${(cause as Error).message}`, { path, cause })
}

/** Replays journal text; a torn last line (a crash mid-append) and unknown ops are skipped. */
export function replayJournal(text: string): OutboxItem[] {
  const items = new Map<string, OutboxItem>()
  for (const line of text.split('\n')) {
    if (line === '') continue
    let record: JournalRecord
    try {
      record = JSON.parse(line) as JournalRecord
    } catch {
      continue
    }
    switch (record.op) {
      case 'add':
        items.set(record.item.id, record.item)
        break
      case 'retry': {
        const item = items.get(record.id)
        if (item) Object.assign(item, { attempts: record.attempts, nextAttemptAt: record.nextAttemptAt, lastError: record.lastError })
        break
      }
      case 'done':
      case 'dead':
        items.delete(record.id)
        break
    }
  }
  return [...items.values()]
}

export function createFileStore(path: string): OutboxStore {
  let records = 0
  try {
    mkdirSync(dirname(path), { recursive: true })
  } catch (err) {
    throw journalError('cannot create the directory of', path, err)
  }

  const store: OutboxStore = {
    get records() {
      return records
    },
    load() {
      if (!existsSync(path)) return []
      let text: string
      try {
        text = readFileSync(path, 'utf8')
      } catch (err) {
        throw journalError('cannot read', path, err)
      }
      const items = replayJournal(text)
      // Start from a clean journal so the torn tail of a crash is never appended to.
      store.compact(items)
      return items
    },
    append(record) {
      try {
        appendFileSync(path, `${JSON.stringify(record)}\n`)
      } catch (err) {
        throw journalError('cannot append to', path, err)
      }
      records++
    },
    dead(letter) {
      try {
        appendFileSync(`${path}.dead`, `${JSON.stringify(letter)}\n`)
      } catch (err) {
        throw journalError('cannot append to', `${path}.dead`, err)
      }
    },
    compact(pending) {
      const tmp = `${path}.tmp`
      try {
        const fd = openSync(tmp, 'w')
        try {
          const text = pending.map((item) => `${JSON.stringify({ op: 'add', item } satisfies JournalRecord)}\n`).join('')
          writeSync(fd, text)
          fsyncSync(fd)
        } finally {
          closeSync(fd)
        }
        renameSync(tmp, path)
      } catch (err) {
        throw journalError('cannot compact', path, err)
      }
      records = pending.length
    },
  }
  return store
}
