// The append-only journal on real files: records replayed in order, a torn last line cut off,
// compaction replacing the file (a held descriptor then writes to the new one), fsync.
import { describe, expect, it } from 'vitest'
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appendRecords, openJournal } from '../../../agent/storage/journal'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('journal')
let n = 0
const fileIn = (): string => join(dir, `j${n++}.jsonl`)

function replayed(file: string): unknown[] {
  const records: unknown[] = []
  openJournal(file, (record) => records.push(record))
  return records
}

describe('journal', () => {
  it('replays what was appended, one call one write, in order; a missing file is empty', () => {
    const file = fileIn()
    expect(replayed(file)).toEqual([])
    const journal = openJournal(file, () => {})
    journal.append([{ a: 1 }, ['b']])
    journal.append([])
    journal.append([2])
    expect(journal.lines).toBe(3)
    expect(replayed(file)).toEqual([{ a: 1 }, ['b'], 2])
  })

  it('cuts off a line torn by a kill, so the next record is whole', () => {
    const file = fileIn()
    openJournal(file, () => {}).append([{ a: 1 }])
    appendFileSync(file, '{"a":')
    const journal = openJournal(file, () => {})
    expect(journal.lines).toBe(1)
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n')
    journal.append([{ a: 3 }])
    expect(replayed(file)).toEqual([{ a: 1 }, { a: 3 }])
  })

  it('compacts by replacing the file; a held descriptor goes on with the new file', () => {
    const file = fileIn()
    const journal = openJournal(file, () => {}, { holdOpen: true })
    for (let i = 0; i < 10; i++) journal.append([i])
    expect(journal.takeUnsynced()).toBe(true)
    journal.compact(['kept'])
    expect(journal.takeUnsynced()).toBe(false)
    journal.append(['next'])
    journal.fsync()
    journal.close()
    expect(journal.lines).toBe(2)
    expect(readFileSync(file, 'utf8')).toBe('"kept"\n"next"\n')
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('appendRecords writes lines to a file never replayed', () => {
    const file = fileIn()
    appendRecords(file, [{ dead: 1 }, { dead: 2 }])
    expect(readFileSync(file, 'utf8')).toBe('{"dead":1}\n{"dead":2}\n')
  })
})
