// Damaged state files on real files, through the one mechanism every state file uses: a journal with
// garbage in the middle, cut mid-record, zero-filled; a file replaced whole that is cut, spoilt or
// zero-filled. Each: reported (one line naming the file), counted, kept aside as .corrupt-<time>
// (which the next save leaves alone), and what was whole kept.
import { afterEach, describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  corruptStateCounts,
  describeCorruptState,
  onCorruptState,
  takeRecordsLost,
  type CorruptStateReport,
} from '../../../agent/storage/corrupt-state'
import { openJournal } from '../../../agent/storage/journal'
import { replaceFile } from '../../../agent/storage/replace-file'
import { readStateFile } from '../../../agent/storage/state-file'
import { tempDir } from '../../helpers/temp-dir'

let reports: CorruptStateReport[] = []
let stop = onCorruptState((report) => reports.push(report))
afterEach(() => {
  stop()
  reports = []
  stop = onCorruptState((report) => reports.push(report))
})

const asideOf = (dir: string, name: string): string[] =>
  readdirSync(dir).filter((entry) => entry.startsWith(`${name}.corrupt-`))

function replayed(file: string, name = 'test-journal'): unknown[] {
  const records: unknown[] = []
  openJournal(file, (record) => records.push(record), { name })
  return records
}

const records = (n: number): string => Array.from({ length: n }, (_, i) => `{"n":${i}}\n`).join('')

describe('a damaged journal', () => {
  it('with garbage in the middle: keeps every whole record, keeps the original aside, says so', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'incidents.json')
    const original = `${records(3)}\u0001garbage{{\n${records(2).replace(/"n":(\d)/g, '"n":1$1')}`
    writeFileSync(file, original)
    const before = corruptStateCounts().get('test-journal')?.corrupt ?? 0
    expect(replayed(file)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 10 }, { n: 11 }])
    expect(reports).toHaveLength(1)
    const [report] = reports as [CorruptStateReport]
    expect(report).toMatchObject({ file, name: 'test-journal', kept: 5, dropped: 1 })
    expect(describeCorruptState(report)).toContain(file)
    expect(describeCorruptState(report)).toContain('the first at line 4')
    expect(corruptStateCounts().get('test-journal')?.corrupt).toBe(before + 1)
    expect(takeRecordsLost(file)).toBe(true)
    expect(takeRecordsLost(file)).toBe(false)
    const [aside] = asideOf(dir, 'incidents.json')
    expect(readFileSync(join(dir, aside as string), 'utf8')).toBe(original)
    expect(report.keptAs).toBe(join(dir, aside as string))
    // The journal now holds the whole records only: a second replay finds nothing to say.
    expect(replayed(file)).toHaveLength(5)
    expect(reports).toHaveLength(1)
  })

  it('refused by the caller (valid JSON that is not a record): damaged too', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'j.jsonl')
    writeFileSync(file, `${records(1)}42\n${records(1)}`)
    const kept: unknown[] = []
    openJournal(file, (record) => (typeof record === 'object' ? kept.push(record) : false))
    expect(kept).toHaveLength(2)
    expect(reports[0]).toMatchObject({ dropped: 1, name: 'j.jsonl' })
    expect(asideOf(dir, 'j.jsonl')).toHaveLength(1)
  })

  it('cut mid-record at the end (a kill mid-append): what parsed kept, said, not kept aside', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'timeline.jsonl')
    writeFileSync(file, `${records(4)}{"n":`)
    expect(replayed(file)).toHaveLength(4)
    expect(reports).toHaveLength(1)
    expect(reports[0]).toMatchObject({ keptAs: undefined, kept: 4, dropped: 1 })
    expect(asideOf(dir, 'timeline.jsonl')).toEqual([])
    expect(takeRecordsLost(file)).toBe(false)
    expect(readFileSync(file, 'utf8')).toBe(records(4))
  })

  it('a last record whole but for its newline is a record', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'j.jsonl')
    writeFileSync(file, `${records(2)}{"n":9}`)
    const journal = openJournal(file, () => {})
    journal.append([{ n: 10 }])
    expect(replayed(file)).toEqual([{ n: 0 }, { n: 1 }, { n: 9 }, { n: 10 }])
    expect(reports).toEqual([])
  })

  it('zero-filled whole (a power cut): nothing to read, kept aside and said', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'outbox.jsonl')
    writeFileSync(file, Buffer.alloc(4096))
    expect(replayed(file)).toEqual([])
    expect(reports[0]).toMatchObject({ kept: 0 })
    expect(reports[0]?.problem).toContain('zero-filled')
    expect(asideOf(dir, 'outbox.jsonl')).toHaveLength(1)
    expect(readFileSync(file, 'utf8')).toBe('')
  })

  it('zero-filled in part (records after the zeros): every whole record kept', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'j.jsonl')
    writeFileSync(file, Buffer.concat([Buffer.from(records(2)), Buffer.alloc(100), Buffer.from('{"n":5}\n')]))
    expect(replayed(file)).toEqual([{ n: 0 }, { n: 1 }, { n: 5 }])
    expect(reports[0]?.problem).toContain('zero-filled')
    expect(asideOf(dir, 'j.jsonl')).toHaveLength(1)
  })

  it('zero-filled at its end: the records before kept, the file kept aside', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'j.jsonl')
    writeFileSync(file, Buffer.concat([Buffer.from(records(3)), Buffer.alloc(512)]))
    expect(replayed(file)).toHaveLength(3)
    expect(asideOf(dir, 'j.jsonl')).toHaveLength(1)
  })
})

interface Silences {
  silences: { id: string }[]
}

const silencesRead = {
  name: 'silences',
  accept: (value: unknown): Silences | undefined =>
    Array.isArray((value as Partial<Silences> | null)?.silences) ? (value as Silences) : undefined,
  count: (value: Silences): number => value.silences.length,
}

describe('a damaged file replaced whole', () => {
  const whole = JSON.stringify({ silences: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] })

  it('reads a whole file as it is, and a missing one as nothing, without a word', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'silences.json')
    expect(readStateFile(file, silencesRead)).toBeUndefined()
    writeFileSync(file, whole)
    expect(readStateFile(file, silencesRead)?.silences).toHaveLength(3)
    expect(reports).toEqual([])
  })

  it('cut mid-record: the whole records before the cut kept, the file kept aside', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'silences.json')
    writeFileSync(file, whole.slice(0, whole.indexOf('"c"')))
    expect(readStateFile(file, silencesRead)?.silences).toEqual([{ id: 'a' }, { id: 'b' }])
    expect(reports[0]).toMatchObject({ name: 'silences', kept: 2 })
    expect(asideOf(dir, 'silences.json')).toHaveLength(1)
  })

  it('what was salvaged is written in place of the damage; a file with nothing left goes', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'silences.json')
    writeFileSync(file, whole.slice(0, whole.indexOf('"c"')))
    const format = (value: Silences): string => JSON.stringify(value)
    expect(readStateFile(file, { ...silencesRead, format })?.silences).toHaveLength(2)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ silences: [{ id: 'a' }, { id: 'b' }] })
    writeFileSync(file, Buffer.alloc(10))
    expect(readStateFile(file, { ...silencesRead, format })).toBeUndefined()
    expect(readdirSync(dir).filter((name) => name === 'silences.json')).toEqual([])
    expect(asideOf(dir, 'silences.json')).toHaveLength(2)
  })

  it('garbage in the middle: every record that is whole kept, before it and after', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'silences.json')
    writeFileSync(file, whole.replace('{"id":"b"}', '{"id":"b"}\u0007#!'))
    expect(readStateFile(file, silencesRead)?.silences).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }])
    writeFileSync(file, whole.replace('{"id":"b"}', '{"id":\u0000#b}'))
    expect(readStateFile(file, silencesRead)?.silences).toEqual([{ id: 'a' }, { id: 'c' }])
    expect(reports[0]?.problem).toContain('not JSON')
  })

  it('zero-filled, or empty: nothing, kept aside and said; the next save leaves the copy alone', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'silences.json')
    writeFileSync(file, Buffer.alloc(64))
    expect(readStateFile(file, silencesRead)).toBeUndefined()
    expect(reports[0]?.problem).toContain('zero-filled')
    replaceFile(file, whole)
    const [aside] = asideOf(dir, 'silences.json')
    expect(readFileSync(join(dir, aside as string))).toEqual(Buffer.alloc(64))
    expect(statSync(join(dir, aside as string)).mode & 0o777).toBe(0o600)
    writeFileSync(file, '')
    expect(readStateFile(file, silencesRead)).toBeUndefined()
    expect(reports[1]?.problem).toBe('empty')
    expect(asideOf(dir, 'silences.json')).toHaveLength(2)
  })

  it('whole JSON of another shape: kept aside', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'silences.json')
    writeFileSync(file, '[1,2]')
    expect(readStateFile(file, silencesRead)).toBeUndefined()
    expect(reports[0]?.problem).toBe('not the shape expected')
  })

  it('a whole file refused by its reader (a later version) is thrown, not kept aside', () => {
    const dir = tempDir('corrupt')
    const file = join(dir, 'x.json')
    writeFileSync(file, '{"version":9}')
    const read = {
      name: 'x',
      accept: (): never => {
        throw new Error('version 9')
      },
      count: () => 0,
    }
    expect(() => readStateFile(file, read)).toThrow('version 9')
    expect(asideOf(dir, 'x.json')).toEqual([])
  })
})

describe('with nobody listening', () => {
  it('the process warning says it', () => {
    stop()
    const dir = tempDir('corrupt')
    const file = join(dir, 'j.jsonl')
    writeFileSync(file, 'garbage\n')
    const warnings: Error[] = []
    const onWarning = (warning: Error): number => warnings.push(warning)
    process.on('warning', onWarning)
    openJournal(file, () => {})
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        process.off('warning', onWarning)
        expect(warnings.map((w) => w.message).join('\n')).toContain(file)
        resolve()
      })
    })
  })
})
