// Optional persistence: an append-only JSON-lines journal in a data directory, replayed at start.
// A torn last line (crash mid-write) is skipped, not fatal; rewrites go through a temp file and
// rename so a crash never leaves a half-written journal.

import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SandboxError, SandboxErrorCodes } from './errors'
import { isStoredKind } from './stored-kinds'
import type { StoreJournal, StoredEntry } from './types'

const FILE = 'records.jsonl'

function parseLine(line: string): StoredEntry | undefined {
  try {
    const value = JSON.parse(line) as Partial<StoredEntry>
    if (
      typeof value.seq === 'number' &&
      typeof value.kind === 'string' &&
      isStoredKind(value.kind) &&
      typeof value.record === 'object' &&
      value.record !== null
    ) {
      return value as StoredEntry
    }
  } catch {
    // torn or foreign line
  }
  return undefined
}

export interface DataDir {
  journal: StoreJournal
  /** Entries found at open time, oldest first. */
  entries: StoredEntry[]
  path: string
}

export function openDataDir(dir: string): DataDir {
  const path = join(dir, FILE)
  let text = ''
  try {
    mkdirSync(dir, { recursive: true })
    text = readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new SandboxError(
        SandboxErrorCodes.DATA_DIR,
        `cannot use data directory ${dir}: ${(err as Error).message}`,
        {
          cause: err,
        },
      )
    }
  }
  const entries: StoredEntry[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const entry = parseLine(line)
    if (entry !== undefined) entries.push(entry)
  }
  entries.sort((a, b) => a.seq - b.seq)
  const journal: StoreJournal = {
    append(entry) {
      appendFileSync(path, `${JSON.stringify(entry)}\n`)
    },
    rewrite(all) {
      const tmp = `${path}.tmp`
      writeFileSync(tmp, all.map((e) => `${JSON.stringify(e)}\n`).join(''))
      renameSync(tmp, path)
    },
  }
  return { journal, entries, path }
}
