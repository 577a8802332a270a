// Symlinks in a tailed directory, with real files and links: a link whose target is inside the
// pattern's base directory is read; one that points outside it (a secret, another app's log) is not,
// at startup and when it appears later, with one warning per link naming it and its target, and a
// count; followSymlinks lets a listed directory (or any target) in.
import { appendFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TailError, Tailer, TailerOptions } from '../../../agent/tail'
import { pollUntil } from '../../helpers/poll-until'
import { collect, useTailerScope, type SeenLine } from './helpers'

const { tempDir, tail } = useTailerScope()

interface Tree {
  logs: string
  secret: string
  allowed: string
}

/** logs/app.log (a file), logs/inside.log -> logs/archive/real.log, logs/secret.log -> secret/shadow, logs/other.log -> allowed/other.log. */
function makeTree(): Tree {
  const root = tempDir('symlinks')
  const logs = join(root, 'logs')
  const secret = join(root, 'secret')
  const allowed = join(root, 'allowed')
  for (const dir of [join(logs, 'archive'), secret, allowed]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(logs, 'app.log'), 'app 1\n')
  writeFileSync(join(logs, 'archive', 'real.log'), 'inside 1\n')
  writeFileSync(join(secret, 'shadow'), 'SECRET root:$6$hash\n')
  writeFileSync(join(allowed, 'other.log'), 'other 1\n')
  symlinkSync(join(logs, 'archive', 'real.log'), join(logs, 'inside.log'))
  symlinkSync(join(secret, 'shadow'), join(logs, 'secret.log'))
  symlinkSync(join(allowed, 'other.log'), join(logs, 'other.log'))
  return { logs, secret, allowed }
}

async function start(
  tree: Tree,
  options: Partial<TailerOptions> = {},
): Promise<{ tailer: Tailer; seen: SeenLine[]; warnings: TailError[] }> {
  const warnings: TailError[] = []
  const tailer = await tail({
    paths: join(tree.logs, '*.log'),
    startAt: 'beginning',
    onWarning: (warning) => warnings.push(warning),
    ...options,
  })
  return { tailer, seen: collect(tailer).seen, warnings }
}

const texts = (seen: readonly SeenLine[]): string[] => seen.map((line) => line.text).sort()
const refusals = (warnings: readonly TailError[]): TailError[] =>
  warnings.filter((warning) => warning.code === 'LOGX_TAIL_ERR_SYMLINK_REFUSED')

describe('symlinks', () => {
  it('reads links inside the base directory, not those out of it: warned once per link, counted', async () => {
    const tree = makeTree()
    const { tailer, seen, warnings } = await start(tree)
    await pollUntil('the lines of app.log and inside.log', () => seen.length >= 2)
    expect(
      refusals(warnings)
        .map((warning) => warning.path)
        .sort(),
    ).toEqual([join(tree.logs, 'other.log'), join(tree.logs, 'secret.log')])
    const [secretWarning] = refusals(warnings).filter((warning) => warning.path === join(tree.logs, 'secret.log'))
    expect(secretWarning?.message).toContain(join(tree.secret, 'shadow'))
    expect(secretWarning?.message).toContain('follow_symlinks')

    // A link made while running is refused too, and writes to a refused target warn no more.
    writeFileSync(join(tree.secret, 'token'), 'SECRET token\n')
    symlinkSync(join(tree.secret, 'token'), join(tree.logs, 'token.log'))
    await pollUntil('the warning about token.log', () =>
      refusals(warnings).some((warning) => warning.path === join(tree.logs, 'token.log')),
    )
    appendFileSync(join(tree.secret, 'shadow'), 'SECRET more\n')
    appendFileSync(join(tree.logs, 'app.log'), 'app 2\n')
    await pollUntil('app 2', () => seen.some((line) => line.text === 'app 2'))

    expect(texts(seen)).toEqual(['app 1', 'app 2', 'inside 1'])
    expect(tailer.files().map((file) => file.path)).not.toContain(join(tree.logs, 'secret.log'))
    expect(refusals(warnings)).toHaveLength(3)
    expect(tailer.stats().refusedLinks).toBe(3)
  })

  it('reads links into a listed directory, and only those', async () => {
    const tree = makeTree()
    const { seen, warnings } = await start(tree, { followSymlinks: [tree.allowed] })
    await pollUntil('the lines of app.log, inside.log and other.log', () => seen.length >= 3)
    appendFileSync(join(tree.logs, 'app.log'), 'app 2\n')
    await pollUntil('app 2', () => seen.some((line) => line.text === 'app 2'))
    expect(texts(seen)).toEqual(['app 1', 'app 2', 'inside 1', 'other 1'])
    expect(refusals(warnings).map((warning) => warning.path)).toEqual([join(tree.logs, 'secret.log')])
  })

  it('reads every link with outside, and none with never', async () => {
    const tree = makeTree()
    const anywhere = await start(tree, { followSymlinks: 'outside' })
    await pollUntil('all four files', () => anywhere.seen.length >= 4)
    expect(texts(anywhere.seen)).toEqual(['SECRET root:$6$hash', 'app 1', 'inside 1', 'other 1'])
    expect(refusals(anywhere.warnings)).toEqual([])

    const none = await start(tree, { followSymlinks: 'never' })
    await pollUntil('three refusals', () => refusals(none.warnings).length >= 3)
    appendFileSync(join(tree.logs, 'app.log'), 'app 2\n')
    await pollUntil('app 2', () => none.seen.some((line) => line.text === 'app 2'))
    expect(texts(none.seen)).toEqual(['app 1', 'app 2'])
  })
})
