// sources: what to tail. Relative globs are made absolute against the working directory, which is
// where pm2 and `npm start` run the agent from.
import { isAbsolute, join } from 'node:path'
import type { CheckContext } from '../load/check-context'
import { normalizeJournald } from './journald'
import { normalizeMultiline } from './multiline'
import type { SourceConfig } from '../types'
import { createNameRegistry } from './unique-names'
import { listItems } from '../shape/written-list'
import type { SourceInput } from '../shape/written-types'

export const DEFAULT_MAX_LINE_BYTES = 256 * 1024

export function normalizeSources(written: SourceInput[] | undefined, ctx: CheckContext): SourceConfig[] {
  const register = createNameRegistry('source', ctx)
  const out: SourceConfig[] = []
  for (const { value: source, path } of listItems(written, ['sources'])) {
    if (source.name !== undefined) register(source.name, [...path, 'name'])
    const journald = normalizeJournald(source, path, ctx)
    out.push({
      name: source.name,
      type: journald === undefined ? 'file' : 'journald',
      // join, not resolve: resolve would collapse `..` and strip a trailing `/`, changing the glob.
      paths:
        journald === undefined
          ? listItems(source.paths, [...path, 'paths']).map(({ value }) =>
              isAbsolute(value) ? value : join(ctx.cwd, value),
            )
          : [],
      journald,
      // A name glob (no '/') stays as written: it is matched against file names wherever they are.
      exclude: listItems(source.exclude, [...path, 'exclude']).map(({ value }) =>
        !value.includes('/') || isAbsolute(value) ? value : join(ctx.cwd, value),
      ),
      format: source.format ?? 'auto',
      multiline: normalizeMultiline(source.multiline, [...path, 'multiline'], ctx),
      startAt: source.start_at ?? 'end',
      maxLineBytes: source.max_line_bytes ?? DEFAULT_MAX_LINE_BYTES,
      syncReads: source.sync_reads ?? true,
    })
  }
  return out
}
