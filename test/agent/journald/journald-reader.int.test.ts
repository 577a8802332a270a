// A journald source against real journal files (systemd-journal-remote writes them, journalctl
// follows them): filters, appends while following, the cursor checkpoint after the outbox sync,
// resuming, start_at, a missing journalctl, and a journalctl that keeps failing.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AlertLine } from '../../../alerts'
import type { SourceConfig } from '../../../agent/config/types'
import { JournaldErrorCodes } from '../../../agent/journald/errors'
import { startJournaldReader, type JournaldReader } from '../../../agent/journald/journald-reader'
import { appendEntries, lastCursor, serviceEntry, skipWithoutJournalTools } from './journal-file'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

const skip = skipWithoutJournalTools('journald reader tests')

interface Harness {
  lines: AlertLine[]
  syncs: number
  failSync: boolean
  warnings: string[]
  reader?: JournaldReader
}

function source(
  journalFile: string,
  overrides: Partial<SourceConfig> = {},
  priority: number | undefined = 4,
): SourceConfig {
  return {
    name: 'system',
    type: 'journald',
    paths: [],
    journald: { units: ['nginx.service'], priority, journalFiles: [journalFile] },
    exclude: [],
    format: 'auto',
    multiline: undefined,
    startAt: 'beginning',
    maxLineBytes: 262_144,
    syncReads: true,
    ...overrides,
  } as SourceConfig
}

/** journalctl processes whose command line names `text` (ours follow a file of the test's own directory). */
function processesNaming(text: string): number[] {
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) pids.push(Number(name))
    } catch {
      // It exited meanwhile.
    }
  }
  return pids
}

describe.skipIf(skip)('a journald source reading a journal file', () => {
  let dir: string
  let journal: string
  let state: string
  let h: Harness

  const start = async (config: SourceConfig, extra: { journalctl?: string } = {}): Promise<JournaldReader> => {
    h.reader = await startJournaldReader({
      source: config,
      stateDir: state,
      pipeline: () => ({ ingest: (line) => void h.lines.push(line), countLines: () => {} }),
      log: {
        info: () => {},
        warn: (_o, msg) => void h.warnings.push(msg),
        error: (_o, msg) => void h.warnings.push(msg),
      },
      beforeCheckpointWrite: () => {
        h.syncs++
        if (h.failSync) throw new Error('outbox sync failed')
      },
      ...extra,
    })
    return h.reader
  }
  const cursorFile = (): string => join(state, 'checkpoints', 'system.cursor')
  const savedCursor = (): string | null | undefined => {
    try {
      return (JSON.parse(readFileSync(cursorFile(), 'utf8')) as { cursor: string | null }).cursor
    } catch {
      return undefined
    }
  }
  const messages = (): string[] => h.lines.map((l) => l.msg)
  const filters = ['--unit=nginx.service', '--priority=4']

  beforeEach(() => {
    dir = tempDir('journald')
    journal = join(dir, 'remote.journal')
    state = join(dir, 'state')
    h = { lines: [], syncs: 0, failSync: false, warnings: [] }
  })

  afterEach(async () => {
    await h.reader?.close()
  })

  it('reads the matching entries from the beginning, then what is appended while it follows', async () => {
    appendEntries(journal, [
      serviceEntry('nginx.service', 3, 'upstream timed out'),
      serviceEntry('nginx.service', 6, 'GET / 200'),
      serviceEntry('cron.service', 3, 'cron broke'),
    ])
    await start(source(journal))
    await pollUntil('the stored error', () => (h.lines.length >= 1 ? true : undefined))
    appendEntries(journal, [
      serviceEntry('nginx.service', 4, 'worker slow'),
      serviceEntry('postgresql.service', 2, 'db down'),
    ])
    await pollUntil('the appended warning', () => (messages().includes('worker slow') ? true : undefined))
    expect(messages()).toEqual(['upstream timed out', 'worker slow'])
    expect(h.lines[0]).toMatchObject({
      level: 50,
      source: 'system',
      record: { unit: 'nginx.service', host: 'web-1', SYSLOG_IDENTIFIER: 'nginx' },
    })
    expect(h.lines[1]?.level).toBe(40)
    expect(h.reader?.stats()).toMatchObject({ files: 1, linesRead: 2 })
    expect(h.reader?.failure).toBeUndefined()
  })

  it('reads a binary message and a repeated field as journalctl prints them (bytes, a list)', async () => {
    appendEntries(journal, [
      {
        ...serviceEntry('nginx.service', 2, ''),
        MESSAGE: Buffer.from('worker died \x07 (signal 9)\n'),
        TAG: ['a', 'b'],
      },
    ])
    await start(source(journal))
    const [line] = await pollUntil('the binary entry', () => (h.lines.length >= 1 ? h.lines : undefined))
    expect(line).toMatchObject({
      msg: 'worker died \x07 (signal 9)',
      level: 60,
      record: { TAG: ['a', 'b'], unit: 'nginx.service' },
    })
  })

  it('checkpoints the cursor only after the outbox sync, and resumes after it', async () => {
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'first error')])
    await start(source(journal))
    await pollUntil('the cursor of the first error', () =>
      savedCursor() === lastCursor(journal, filters) ? true : undefined,
    )
    expect(h.syncs).toBeGreaterThanOrEqual(1)

    // The outbox cannot be made durable: the cursor must not move past what it holds.
    h.failSync = true
    const before = savedCursor()
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'second error')])
    await pollUntil('the second error', () => (messages().includes('second error') ? true : undefined))
    const syncs = h.syncs
    await pollUntil('a checkpoint attempt', () => (h.syncs > syncs ? true : undefined))
    expect(savedCursor()).toBe(before)
    expect(h.warnings.some((w) => w.includes('outbox sync failed'))).toBe(true)

    h.failSync = false
    await h.reader?.close()
    h.reader = undefined
    expect(savedCursor()).toBe(lastCursor(journal, filters))
    expect(processesNaming(journal)).toEqual([])

    appendEntries(journal, [serviceEntry('nginx.service', 3, 'third error')])
    h.lines = []
    await start(source(journal))
    await pollUntil('the third error', () => (messages().includes('third error') ? true : undefined))
    expect(messages()).toEqual(['third error'])
  })

  it('start_at end: skips what is stored, saves that place at once, and reads what comes after', async () => {
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'old error')])
    await start(source(journal, { startAt: 'end' }))
    // Saved before anything is read: entries written while the agent is down are read on its next start.
    expect(savedCursor()).toBe(lastCursor(journal, filters))
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'new error')])
    await pollUntil('the new error', () => (messages().includes('new error') ? true : undefined))
    expect(messages()).toEqual(['new error'])
  })

  it('start_at end with no matching entry stored: reads every matching entry that comes', async () => {
    appendEntries(journal, [serviceEntry('cron.service', 3, 'not ours')])
    await start(source(journal, { startAt: 'end' }))
    expect(savedCursor()).toBeNull()
    await h.reader?.close()
    h.reader = undefined
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'written while down')])
    await start(source(journal, { startAt: 'end' }))
    await pollUntil('the entry written while down', () =>
      messages().includes('written while down') ? true : undefined,
    )
  })

  it('does not start without journalctl, naming the source', async () => {
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'x')])
    await expect(start(source(journal), { journalctl: join(dir, 'no-such-journalctl') })).rejects.toMatchObject({
      code: JournaldErrorCodes.JOURNALCTL_MISSING,
      message: expect.stringMatching(/^sources system: cannot run .*no-such-journalctl \(ENOENT\)/),
    })
  })

  it('restarts a journalctl that exits; failing on /health while it keeps failing, fine again once it reads', async () => {
    // No file matches yet: journalctl exits at once, each time.
    await start(source(journal))
    const reader = h.reader as JournaldReader
    const failure = await pollUntil('a failing source', () => reader.failure, { timeoutMs: 15_000 })
    expect(failure).toMatch(/journalctl failed 3 times in a row .*Failed to open files/)
    expect(h.warnings.filter((w) => w.startsWith('journalctl exited')).length).toBeGreaterThanOrEqual(3)
    appendEntries(journal, [serviceEntry('nginx.service', 3, 'back again')])
    await pollUntil('the entry after the restarts', () => (messages().includes('back again') ? true : undefined), {
      timeoutMs: 45_000,
    })
    expect(reader.failure).toBeUndefined()
  }, 60_000)
})
