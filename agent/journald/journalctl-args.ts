// The journalctl command lines of a journald source. Pure.
//
// Every value goes in its own `--option=value` argument (no shell, no option injection from a
// unit name that starts with '-'). `--all` prints fields over 4096 bytes (else null); `--quiet`
// keeps hints off stderr. Without --follow journalctl ends after what is stored; with it, it waits.
import type { JournaldSourceConfig } from '../config/types'

/** Where a follow starts: after an entry (its cursor), or at the first entry the filters match. */
export type JournalPosition = { kind: 'cursor'; cursor: string } | { kind: 'beginning' }

function filterArgs(config: JournaldSourceConfig): string[] {
  const args: string[] = []
  // journalctl expands the globs itself (and fails when none matches a file: a restart retries).
  for (const file of config.journalFiles) args.push(`--file=${file}`)
  // Several --unit are any of them.
  for (const unit of config.units) args.push(`--unit=${unit}`)
  if (config.priority !== undefined) args.push(`--priority=${config.priority}`)
  return args
}

/** Follows the journal from `position` on: after the cursor, or every stored entry then the new ones. */
export function followArgs(config: JournaldSourceConfig, position: JournalPosition): string[] {
  // --no-tail: with --follow, journalctl would otherwise start at the last 10 entries.
  const start = position.kind === 'cursor' ? `--after-cursor=${position.cursor}` : '--no-tail'
  return ['--output=json', '--all', '--quiet', '--no-pager', '--follow', ...filterArgs(config), start]
}

/** Prints the last entry the filters match (nothing when none does), then exits. */
export function lastEntryArgs(config: JournaldSourceConfig): string[] {
  return ['--output=json', '--all', '--quiet', '--no-pager', '--lines=1', ...filterArgs(config)]
}
