// A source's `type` and what it allows: a file source needs `paths` and takes no journal filters;
// a journald source (agent/journald/) has no paths and takes none of the file-reading keys. Each
// key in the wrong kind of source is a problem of its own, naming it.
import { isAbsolute, join } from 'node:path'
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import type { JournaldSourceConfig } from '../types'
import { listItems } from '../shape/written-list'
import type { SourceInput } from '../shape/written-types'
import type { Segment } from '../load/yaml-source'

/** Syslog severities by name, in journalctl's spelling: the index is the number (0 emerg .. 7 debug). */
export const JOURNAL_PRIORITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'] as const

/** What a journald source takes; every other key of a source is about files. */
const JOURNALD_KEYS: ReadonlySet<string> = new Set(['name', 'type', 'units', 'priority', 'journal_files', 'start_at'])
const JOURNAL_ONLY_KEYS = ['units', 'priority', 'journal_files'] as const

/** A problem was reported at `at` or under it (its value failed, and is undefined here). */
const hasProblem = (ctx: CheckContext, at: readonly Segment[]): boolean =>
  ctx.problems.some((p) => at.every((segment, i) => p.path[i] === segment))

function priorityNumber(written: SourceInput['priority']): number | undefined {
  if (written === undefined) return undefined
  return typeof written === 'number' ? written : JOURNAL_PRIORITIES.indexOf(written)
}

/**
 * The journal filters of a journald source (undefined for a file source), after reporting the keys
 * that do not belong to the source's type. `path` is the source's path in the file.
 */
export function normalizeJournald(
  source: SourceInput,
  path: readonly Segment[],
  ctx: CheckContext,
): JournaldSourceConfig | undefined {
  // A misspelt type has its problem already: which keys belong is then unknown.
  if (source.type === undefined && hasProblem(ctx, [...path, 'type'])) return undefined
  if (source.type !== 'journald') {
    for (const key of JOURNAL_ONLY_KEYS) {
      if (source[key] !== undefined)
        ctx.report(
          ConfigErrorCodes.CONFLICT,
          [...path, key],
          `"${key}" is for journald sources: add type: journald, or remove it`,
          'key',
        )
    }
    // The shape cannot require paths of file sources only. A paths given with a bad value has its
    // own problem already (and is undefined here): only a missing one is reported.
    const pathsAt = [...path, 'paths']
    if (source.paths === undefined && !hasProblem(ctx, pathsAt))
      ctx.report(ConfigErrorCodes.MISSING_KEY, pathsAt, 'is required')
    return undefined
  }
  for (const key of Object.keys(source)) {
    if (JOURNALD_KEYS.has(key)) continue
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...path, key],
      `"${key}" is for file sources: ` +
        'a journald source (type: journald) takes only name, units, priority, journal_files and start_at',
      'key',
    )
  }
  return {
    units: listItems(source.units, [...path, 'units']).map(({ value }) => value),
    priority: priorityNumber(source.priority),
    // join, not resolve, as for paths: the glob stays as written.
    journalFiles: listItems(source.journal_files, [...path, 'journal_files']).map(({ value }) =>
      isAbsolute(value) ? value : join(ctx.cwd, value),
    ),
  }
}
