// Reads `strace -f -y -o` output into the file events the durability check needs (writes, fsyncs
// and renames, each with the trace lines where it began and ended), and the check itself: a
// rename over a state file must follow an fsync of the renamed file made after its last write, and
// be followed by an fsync of its directory before the file is replaced again.
import { dirname, isAbsolute, join, relative } from 'node:path'

export type FileEvent =
  | { kind: 'write' | 'fsync'; path: string; start: number; end: number }
  | { kind: 'rename'; from: string; to: string; start: number; end: number }

const WRITES = new Set(['write', 'pwrite64', 'writev', 'pwritev', 'pwritev2'])
const FSYNCS = new Set(['fsync', 'fdatasync'])
const RENAMES = new Set(['rename', 'renameat', 'renameat2'])

/** `name(args) = result` of a finished call; undefined for a failed one or another line. */
function finishedCall(text: string): { name: string; args: string } | undefined {
  const match = /^(\w+)\((.*)\)\s+=\s+(-?\d+)/.exec(text)
  if (match === null || Number(match[3]) < 0) return undefined
  return { name: match[1] ?? '', args: match[2] ?? '' }
}

/** The paths a rename names, each resolved against the directory descriptor before it, if any. */
function renamePaths(args: string): string[] {
  const paths: string[] = []
  for (const match of args.matchAll(/(?:(?:AT_FDCWD|\d+)<([^>]*)>,\s*)?"((?:[^"\\]|\\.)*)"/g)) {
    const path = match[2] ?? ''
    paths.push(isAbsolute(path) || match[1] === undefined ? path : join(match[1], path))
  }
  return paths
}

function eventOf(name: string, args: string, start: number, end: number): FileEvent | undefined {
  if (RENAMES.has(name)) {
    const [from, to] = renamePaths(args)
    return from === undefined || to === undefined ? undefined : { kind: 'rename', from, to, start, end }
  }
  const fd = /^\d+<([^>]*)>/.exec(args)
  if (fd === null) return undefined
  if (FSYNCS.has(name)) return { kind: 'fsync', path: fd[1] ?? '', start, end }
  if (WRITES.has(name)) return { kind: 'write', path: fd[1] ?? '', start, end }
  return undefined
}

/** The events of a trace, in the order they finished; a call split by another thread's is joined again. */
export function parseStrace(trace: string): FileEvent[] {
  const events: FileEvent[] = []
  const unfinished = new Map<string, { text: string; start: number }>()
  trace.split('\n').forEach((line, index) => {
    const match = /^(\d+)\s+(.*)$/.exec(line)
    if (match === null) return
    const [, pid = '', rest = ''] = match
    let text = rest
    let start = index
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(rest)
    if (resumed !== null) {
      const begun = unfinished.get(pid)
      unfinished.delete(pid)
      if (begun === undefined) return
      text = begun.text + (resumed[1] ?? '')
      start = begun.start
    } else if (rest.endsWith('<unfinished ...>')) {
      unfinished.set(pid, { text: rest.slice(0, -'<unfinished ...>'.length).trimEnd(), start: index })
      return
    }
    const call = finishedCall(text)
    const event = call === undefined ? undefined : eventOf(call.name, call.args, start, index)
    if (event !== undefined) events.push(event)
  })
  return events
}

const renames = (events: readonly FileEvent[]): Extract<FileEvent, { kind: 'rename' }>[] =>
  events.flatMap((e) => (e.kind === 'rename' ? [e] : []))

/** What is wrong with each rename over a file under `stateDir`, one sentence each; empty when none. */
export function durabilityProblems(events: readonly FileEvent[], stateDir: string): string[] {
  const problems: string[] = []
  const all = renames(events)
  all.forEach((rename, i) => {
    if (!rename.to.startsWith(`${stateDir}/`)) return
    const name = relative(stateDir, rename.to)
    const since = all.slice(0, i).findLast((r) => r.from === rename.from)?.end ?? -1
    const written = events.filter(
      (e) => e.kind === 'write' && e.path === rename.from && e.start > since && e.start < rename.start,
    )
    const lastWrite = Math.max(since, ...written.map((e) => e.end))
    const fsynced = events.some(
      (e) => e.kind === 'fsync' && e.path === rename.from && e.start > lastWrite && e.end < rename.start,
    )
    if (!fsynced) problems.push(`${name}: renamed over without an fsync of ${rename.from} after its last write`)
    const next = all.slice(i + 1).find((r) => r.to === rename.to)?.start ?? Infinity
    const directory = dirname(rename.to)
    const dirSynced = events.some(
      (e) => e.kind === 'fsync' && e.path === directory && e.start > rename.end && e.end < next,
    )
    if (!dirSynced) problems.push(`${name}: no fsync of ${directory} after the rename`)
  })
  return problems
}
