// The state directory's first start step on real files: made 0700, what it holds tightened to the
// owner's only (said), a chmod that fails stops the start naming the path, and a damaged state file
// met while loading is said on the agent's log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { checkStateDirModes, prepareStateDir } from '../../../agent/daemon/state-dir'
import { DaemonErrorCodes } from '../../../agent/daemon/errors'
import { createAgentLogger } from '../../../agent/daemon/logger'
import { appendRecords, openJournal } from '../../../agent/storage/journal'
import { replaceFile, replaceFileAsync } from '../../../agent/storage/replace-file'
import { tempDir } from '../../helpers/temp-dir'

const modeOf = (path: string): number => statSync(path).mode & 0o777

let umask = 0
beforeEach(() => {
  umask = process.umask(0o022)
})
afterEach(() => {
  process.umask(umask)
})

function logged(): { log: ReturnType<typeof createAgentLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = []
  const log = createAgentLogger({
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  })
  return { log, lines }
}

describe('the state directory at start', () => {
  it('is made 0700 under umask 022', () => {
    const state = join(tempDir('state-dir'), 'state')
    expect(checkStateDirModes(state)).toEqual([])
    expect(modeOf(state)).toBe(0o700)
  })

  it('tightens a directory and files readable by others, in checkpoints/ too, and says so; links untouched', () => {
    const dir = tempDir('state-dir')
    const state = join(dir, 'state')
    mkdirSync(join(state, 'checkpoints'), { recursive: true })
    chmodSync(state, 0o755)
    chmodSync(join(state, 'checkpoints'), 0o755)
    writeFileSync(join(state, 'outbox.jsonl'), '', { mode: 0o644 })
    writeFileSync(join(state, 'incidents.json'), '', { mode: 0o600 })
    writeFileSync(join(state, 'checkpoints', 'app.json'), '', { mode: 0o640 })
    writeFileSync(join(dir, 'elsewhere'), '', { mode: 0o644 })
    symlinkSync(join(dir, 'elsewhere'), join(state, 'link'))
    const { log, lines } = logged()
    const stop = prepareStateDir(state, log)
    stop()
    expect(modeOf(state)).toBe(0o700)
    expect(modeOf(join(state, 'checkpoints'))).toBe(0o700)
    expect(modeOf(join(state, 'outbox.jsonl'))).toBe(0o600)
    expect(modeOf(join(state, 'checkpoints', 'app.json'))).toBe(0o600)
    expect(modeOf(join(dir, 'elsewhere'))).toBe(0o644)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 40, tightened: 4 })
    expect(String(lines[0]?.msg)).toContain(join(state, 'outbox.jsonl'))
    // Once tight, a start says nothing.
    expect(checkStateDirModes(state)).toEqual([])
  })

  it('stops the start, naming the path, when a file cannot be tightened (another owner)', () => {
    const state = tempDir('state-dir')
    writeFileSync(join(state, 'timeline.jsonl'), '', { mode: 0o644 })
    chmodSync(state, 0o700)
    const refuse = (): never => {
      throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' })
    }
    expect(() => checkStateDirModes(state, refuse)).toThrow(
      expect.objectContaining({
        code: DaemonErrorCodes.STATE,
        message: expect.stringContaining(`${join(state, 'timeline.jsonl')} is readable by other users (mode 644)`),
      }),
    )
  })

  it('says a damaged state file on the agent log while the step runs, and not after its undo', () => {
    const state = tempDir('state-dir')
    const file = join(state, 'incidents.json')
    writeFileSync(file, '["c","a"]\ngarbage\n', { mode: 0o600 })
    const { log, lines } = logged()
    const stop = prepareStateDir(state, log)
    try {
      openJournal(file, () => true, { name: 'incidents' })
    } finally {
      stop()
    }
    const other = join(state, 'other.jsonl')
    writeFileSync(other, 'garbage\n')
    process.once('warning', () => {})
    openJournal(other, () => true)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 40, file, kept: 1 })
    expect(String(lines[0]?.msg)).toContain(`state file ${file} is damaged`)
    expect(String(lines[0]?.keptAs)).toContain(`${file}.corrupt-`)
  })
})

describe('state files written by storage', () => {
  it('are 0600 under umask 022: replaced whole, journals, dead letters', async () => {
    const state = tempDir('state-dir')
    replaceFile(join(state, 'silences.json'), '{}')
    await replaceFileAsync(join(state, 'checkpoint.json'), '{}')
    openJournal(join(state, 'outbox.jsonl'), () => true, { holdOpen: true }).append([{ op: 'x' }])
    openJournal(join(state, 'timeline.jsonl'), () => true).append([['k', {}]])
    appendRecords(join(state, 'outbox.jsonl.dead'), [{}])
    for (const name of ['silences.json', 'checkpoint.json', 'outbox.jsonl', 'timeline.jsonl', 'outbox.jsonl.dead'])
      expect([name, modeOf(join(state, name))]).toEqual([name, 0o600])
  })
})
