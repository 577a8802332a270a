// The durability check of durable-renames.int.test.ts on traces written by hand: it passes the
// order storage follows, and fails each step left out or done out of order.
import { describe, expect, it } from 'vitest'
import { durabilityProblems, parseStrace } from './strace-events'

const STATE = '/w/state'

/** A replacement of `state/<name>` by process 7, as storage does it, with lines left out or added. */
function replacement(name: string, skip: readonly string[] = []): string {
  const temp = `${STATE}/.${name}.7.tmp`
  const lines: Record<string, string> = {
    open: `7 openat(AT_FDCWD</w>, "${temp}", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 21<${temp}>`,
    write: `7 write(21<${temp}>, ""..., 40) = 40`,
    fsync: `7 fsync(21<${temp}>) = 0`,
    rename: `7 rename("${temp}", "${STATE}/${name}") = 0`,
    dir: `7 fsync(22<${STATE}>) = 0`,
  }
  return Object.entries(lines)
    .filter(([step]) => !skip.includes(step))
    .map(([, line]) => line)
    .join('\n')
}

const problems = (trace: string): string[] => durabilityProblems(parseStrace(trace), STATE)

describe('the durable-rename check', () => {
  it('passes write, fsync, rename, directory fsync', () => {
    expect(problems(`${replacement('a.json')}\n${replacement('a.json')}`)).toEqual([])
  })

  it('fails a rename with no fsync of the new file', () => {
    expect(problems(replacement('a.json', ['fsync']))).toEqual([
      `a.json: renamed over without an fsync of ${STATE}/.a.json.7.tmp after its last write`,
    ])
  })

  it('fails an fsync made before the last write', () => {
    const trace = replacement('a.json').replace(
      /^(7 fsync\(21.*)\n(7 rename)/m,
      `$1\n7 write(21<${STATE}/.a.json.7.tmp>, ""..., 1) = 1\n$2`,
    )
    expect(problems(trace)).toHaveLength(1)
  })

  it('fails a rename with no directory fsync after it, before the file is replaced again', () => {
    expect(problems(`${replacement('a.json', ['dir'])}\n${replacement('a.json')}`)).toEqual([
      `a.json: no fsync of ${STATE} after the rename`,
    ])
  })

  it('ignores renames outside the state directory', () => {
    expect(problems('7 rename("/w/cache/x.tmp", "/w/cache/x") = 0')).toEqual([])
  })

  it('joins a call another thread interrupted, resolves renameat paths, and skips failed calls', () => {
    const temp = `${STATE}/.b.json.7.tmp`
    const trace = [
      `8 fsync(21<${temp}> <unfinished ...>`,
      `7 write(1<pipe:[5]>, ""..., 3) = 3`,
      `8 <... fsync resumed>) = 0`,
      `8 renameat2(AT_FDCWD</w>, "state/.b.json.7.tmp", AT_FDCWD</w>, "state/b.json", 0) = 0`,
      `8 fsync(23<${STATE}>) = -1 EIO (Input/output error)`,
    ].join('\n')
    const events = parseStrace(trace)
    // In the order they finished; the fsync begins on the first line.
    expect(events.map((e) => e.kind)).toEqual(['write', 'fsync', 'rename'])
    expect(events[1]).toMatchObject({ path: temp, start: 0, end: 2 })
    expect(events[2]).toMatchObject({ from: temp, to: `${STATE}/b.json` })
    expect(durabilityProblems(events, STATE)).toEqual([`b.json: no fsync of ${STATE} after the rename`])
  })
})
