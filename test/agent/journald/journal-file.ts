// Real journal files for the journald tests, with no journald running: entries in the Journal
// Export Format piped to Debian's systemd-journal-remote, which writes (or appends to) a .journal
// file that journalctl --file reads and follows. CI installs both (.ci/run); elsewhere the suites
// skip, saying so once.
import { execFileSync, spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

export const JOURNAL_REMOTE = '/lib/systemd/systemd-journal-remote'

function runnable(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0
}

/** Why the journal suites cannot run here, or undefined when they can. */
export function missingJournalTools(): string | undefined {
  try {
    accessSync(JOURNAL_REMOTE, constants.X_OK)
  } catch {
    return `${JOURNAL_REMOTE} is missing (apt-get install systemd-journal-remote)`
  }
  if (!runnable('journalctl', ['--version'])) return 'journalctl is missing (apt-get install systemd)'
  return undefined
}

/** Says once, loudly, that a suite is skipped; returns whether it is. */
export function skipWithoutJournalTools(suite: string): boolean {
  const missing = missingJournalTools()
  if (missing !== undefined) console.warn(`SKIPPED ${suite}: ${missing}`)
  return missing !== undefined
}

/** A list is a field repeated in the entry (journalctl then prints the list of its values). */
export type ExportFields = Record<string, string | Buffer | (string | Buffer)[]>

// One boot for every entry the tests write; monotonic and realtime timestamps only grow.
const BOOT_ID = '4c9a3f0e2b7d41c6a5e8f1d2c3b4a596'
let lastMicros = 0

/** One entry in the export format: `KEY=value\n` for text, `KEY\n<u64le size><bytes>\n` for binary, a blank line after. */
export function exportEntry(fields: ExportFields): Buffer {
  lastMicros = Math.max(lastMicros + 1, Date.now() * 1000)
  const all: ExportFields = {
    __REALTIME_TIMESTAMP: String(lastMicros),
    __MONOTONIC_TIMESTAMP: String(lastMicros),
    _BOOT_ID: BOOT_ID,
    ...fields,
  }
  const parts: Buffer[] = []
  const pairs = Object.entries(all).flatMap(([key, value]) =>
    Array.isArray(value) ? value.map((v) => [key, v] as const) : [[key, value] as const],
  )
  for (const [key, value] of pairs) {
    const bytes = typeof value === 'string' ? Buffer.from(value) : value
    if (typeof value === 'string' && !value.includes('\n')) {
      parts.push(Buffer.from(`${key}=${value}\n`))
      continue
    }
    const size = Buffer.alloc(8)
    size.writeBigUInt64LE(BigInt(bytes.length))
    parts.push(Buffer.from(`${key}\n`), size, bytes, Buffer.from('\n'))
  }
  parts.push(Buffer.from('\n'))
  return Buffer.concat(parts)
}

/** Appends the entries to `file` (creating it): a second run of journal-remote adds to the same file. */
export function appendEntries(file: string, entries: readonly ExportFields[]): void {
  execFileSync(JOURNAL_REMOTE, [`--output=${file}`, '-'], {
    input: Buffer.concat(entries.map(exportEntry)),
    stdio: ['pipe', 'ignore', 'pipe'],
  })
}

/** The cursor of the last entry of `file` the filters match (journalctl's own answer). */
export function lastCursor(file: string, filters: string[] = []): string | undefined {
  const out = execFileSync(
    'journalctl',
    [`--file=${file}`, '--output=json', '--lines=1', '--no-pager', '--quiet', ...filters],
    { encoding: 'utf8' },
  ).trim()
  return out === '' ? undefined : (JSON.parse(out) as { __CURSOR: string }).__CURSOR
}

/** An entry as a service would log it. */
export const serviceEntry = (unit: string, priority: number, message: string, host = 'web-1'): ExportFields => ({
  MESSAGE: message,
  PRIORITY: String(priority),
  _SYSTEMD_UNIT: unit,
  _HOSTNAME: host,
  SYSLOG_IDENTIFIER: unit.replace(/\.service$/, ''),
})
