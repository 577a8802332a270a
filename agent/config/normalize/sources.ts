// sources: what to tail. Relative globs are made absolute against the working directory, which is
// where pm2 and `npm start` run the agent from.
import { isAbsolute, join, resolve } from 'node:path'
import type { FollowSymlinks } from '../../tail/link-decision'
import type { CheckContext } from '../load/check-context'
import { normalizeJournald } from './journald'
import { checkIntakeAddresses, isIntakeType, normalizeIntake, reportIntakeKeys, type WrittenIntake } from './intake'
import { normalizeMultiline } from './multiline'
import type { SourceConfig } from '../types'
import { createNameRegistry } from './unique-names'
import { listItems } from '../shape/written-list'
import type { SourceInput } from '../shape/written-types'

export const DEFAULT_MAX_LINE_BYTES = 256 * 1024

export function normalizeSources(written: SourceInput[] | undefined, ctx: CheckContext): SourceConfig[] {
  const register = createNameRegistry('source', ctx)
  const out: SourceConfig[] = []
  const intakes: WrittenIntake[] = []
  for (const { value: source, path } of listItems(written, ['sources'])) {
    if (source.name !== undefined) register(source.name, [...path, 'name'])
    const intake = normalizeIntake(source, path, ctx)
    if (intake === undefined && source.type !== 'journald') reportIntakeKeys(source, path, ctx)
    const journald = intake === undefined ? normalizeJournald(source, path, ctx) : undefined
    const type = isIntakeType(source.type) ? source.type : journald === undefined ? 'file' : 'journald'
    out.push({
      name: source.name,
      type,
      ...(intake === undefined ? {} : { intake }),
      // join, not resolve: resolve would collapse `..` and strip a trailing `/`, changing the glob.
      paths:
        journald === undefined && intake === undefined
          ? listItems(source.paths, [...path, 'paths']).map(({ value }) =>
              isAbsolute(value) ? value : join(ctx.cwd, value),
            )
          : [],
      journald,
      // A name glob (no '/') stays as written: it is matched against file names wherever they are.
      exclude: listItems(source.exclude, [...path, 'exclude']).map(({ value }) =>
        !value.includes('/') || isAbsolute(value) ? value : join(ctx.cwd, value),
      ),
      followSymlinks: followSymlinksOf(source, ctx.cwd),
      format: source.format ?? 'auto',
      multiline: normalizeMultiline(source.multiline, [...path, 'multiline'], ctx),
      startAt: source.start_at ?? 'end',
      maxLineBytes: source.max_line_bytes ?? DEFAULT_MAX_LINE_BYTES,
      syncReads: source.sync_reads ?? true,
    })
    if (intake !== undefined) intakes.push({ source: out[out.length - 1] as SourceConfig, at: path })
  }
  checkIntakeAddresses(intakes, ctx)
  return out
}

/**
 * The directories a container runtime's links point to: Kubernetes' /var/log/containers/*.log link
 * to /var/log/pods/, whose files are the runtime's own (containerd, CRI-O) or, with Docker, links on
 * to /var/lib/docker/containers/.
 */
export const CONTAINER_LINK_ROOTS: Readonly<Record<'docker' | 'cri', readonly string[]>> = {
  docker: ['/var/log/pods', '/var/lib/docker/containers'],
  cri: ['/var/log/pods'],
}

function followSymlinksOf(source: SourceInput, cwd: string): FollowSymlinks {
  const written = source.follow_symlinks
  if (typeof written === 'string') return written
  // A failed item is undefined here (the checker said where): the rest still count.
  if (written !== undefined) return written.filter((dir) => typeof dir === 'string').map((dir) => resolve(cwd, dir))
  if (source.format === 'docker' || source.format === 'cri') return CONTAINER_LINK_ROOTS[source.format]
  return 'inside'
}
