// Applies link-decision.ts to the paths the tailer meets: discovery asks before it reports or walks
// into a symlink, and every file is asked again once opened, on what the handle holds (a link made
// between a scan and the open, or a file renamed over by one, would otherwise slip through). A
// refused link is warned about once per path and target, and counted.

import type { BigIntStats } from 'node:fs'
import { realpath, stat } from 'node:fs/promises'
import { TailErrorCodes, type TailErrorCode } from './errors'
import type { CompiledGlob } from './glob'
import { decideLink, isInside, type FollowSymlinks } from './link-decision'

export interface LinkGuard {
  /** Whether `path` (a symlink met by a scan, to a file or a directory) may be followed. */
  admits(path: string): Promise<boolean>
  /** Whether the file opened at `path` (its fstat) may be read: the path resolves to it, which the decision allows. */
  admitsOpened(path: string, opened: Pick<BigIntStats, 'dev' | 'ino'>): Promise<boolean>
}

export interface LinkGuardOptions {
  readonly globs: readonly CompiledGlob[]
  readonly setting: FollowSymlinks
  readonly warn: (code: TailErrorCode, message: string, path: string) => void
  /** Told once per refused path and target. */
  readonly onRefused: () => void
}

const resolved = (path: string): Promise<string | undefined> => realpath(path).catch(() => undefined)

export function createLinkGuard(options: LinkGuardOptions): LinkGuard {
  const { globs, setting } = options
  const warned = new Set<string>()

  async function decide(path: string, target: string): Promise<boolean> {
    const holding = globs.filter((glob) => isInside(path, glob.base))
    const bases = await Promise.all(
      holding.map(async ({ base }) => ({ base, realBase: (await resolved(base)) ?? base })),
    )
    // Roots resolved as targets are: `/var/lib/docker` may itself be a link to another disk.
    const roots =
      typeof setting === 'string'
        ? setting
        : await Promise.all(setting.map(async (root) => (await resolved(root)) ?? root))
    const decision = decideLink({ path, target, bases }, roots)
    if (decision.kind === 'follow') return true
    const key = `${path}\0${target}`
    if (!warned.has(key)) {
      warned.add(key)
      options.onRefused()
      const why =
        decision.why === 'never'
          ? 'symlinks are not followed (followSymlinks: never)'
          : `outside ${bases.map(({ realBase }) => realBase).join(', ') || 'the base directory'}`
      options.warn(
        TailErrorCodes.SYMLINK_REFUSED,
        `not reading ${path}: it resolves to ${target}, ${why}; the source's follow_symlinks setting ` +
          '(tailer option followSymlinks) allows it',
        path,
      )
    }
    return false
  }

  return {
    async admits(path) {
      if (setting === 'outside') return true
      const target = await resolved(path)
      // Dangling, or gone meanwhile: nothing to read; the scan looks again.
      return target !== undefined && decide(path, target)
    },
    async admitsOpened(path, opened) {
      if (setting === 'outside') return true
      const target = await resolved(path)
      if (target === undefined) return false
      const there = await stat(target, { bigint: true }).catch(() => undefined)
      // The path was pointed elsewhere between the open and now: its next event asks again.
      if (there === undefined || there.dev !== opened.dev || there.ino !== opened.ino) return false
      return decide(path, target)
    },
  }
}
