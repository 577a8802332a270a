// Whether a matching path that resolves elsewhere (a symlink, or a directory symlink on the way) is
// followed. Pure: link-guard.ts resolves the paths (realpath), this decides. A link in a log
// directory to a file the agent's user can read (another app's logs, a secret) would otherwise page
// that file's lines out. Rules, in order:
// 1. `outside`: every target is followed (what the tailer did before this setting existed);
// 2. a path that resolves to where it lies (no symlink below its pattern's base directory) is
//    followed, whatever the setting: a base directory that is itself a link (`logs -> /data/logs`)
//    is the user's own choice of where to read;
// 3. `never`: anything else is refused;
// 4. a target inside the resolved base directory of a pattern that matches the path is followed;
// 5. with a list of directories: a target inside one of them is followed too (Kubernetes'
//    `/var/log/containers/*.log` -> `/var/log/pods/...` -> a container runtime's file);
// 6. anything else is refused.

import { relative, sep } from 'node:path'

/**
 * `inside` (default), `outside`, `never`, or the directories (absolute, resolved) whose files a
 * link may point to besides the pattern's base.
 */
export type FollowSymlinks = 'inside' | 'outside' | 'never' | readonly string[]

export interface LinkFacts {
  /** The matching path, absolute, as the glob found it. */
  readonly path: string
  /** Its realpath. */
  readonly target: string
  /** For each pattern that matches the path: its base directory as written and that directory's realpath. */
  readonly bases: readonly { readonly base: string; readonly realBase: string }[]
}

export type LinkDecision = { readonly kind: 'follow' } | { readonly kind: 'refuse'; readonly why: 'never' | 'outside' }

const FOLLOW: LinkDecision = { kind: 'follow' }

export function decideLink(facts: LinkFacts, setting: FollowSymlinks): LinkDecision {
  if (setting === 'outside') return FOLLOW
  const { path, target, bases } = facts
  if (bases.some(({ base, realBase }) => resolvesInPlace(path, target, base, realBase))) return FOLLOW
  if (setting === 'never') return { kind: 'refuse', why: 'never' }
  if (bases.some(({ realBase }) => isInside(target, realBase))) return FOLLOW
  if (typeof setting !== 'string' && setting.some((root) => isInside(target, root))) return FOLLOW
  return { kind: 'refuse', why: 'outside' }
}

/** `path` lies under `base` and its target is the same place under the base's realpath. */
function resolvesInPlace(path: string, target: string, base: string, realBase: string): boolean {
  const below = relative(base, path)
  return isBelow(below) && relative(realBase, target) === below
}

/** `path` is `dir` or lies under it. */
export function isInside(path: string, dir: string): boolean {
  const below = relative(dir, path)
  return below === '' || isBelow(below)
}

const isBelow = (below: string): boolean => below !== '' && below !== '..' && !below.startsWith(`..${sep}`)
