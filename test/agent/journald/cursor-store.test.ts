// The cursor checkpoint: what is written is read back; a damaged file is kept aside and said (never
// a silent start from elsewhere); a file of another version stops the start with a code and its name.
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { readCursor, writeCursor } from '../../../agent/journald/cursor-store'
import { JournaldError, JournaldErrorCodes } from '../../../agent/journald/errors'
import { onCorruptState, type CorruptStateReport } from '../../../agent/storage/corrupt-state'
import { tempDir } from '../../helpers/temp-dir'

describe('the cursor checkpoint', () => {
  let dir: string
  let file: string
  beforeEach(() => {
    dir = tempDir('cursor')
    file = join(dir, 'system.cursor')
  })

  it('is absent before the first write', () => {
    expect(readCursor(file)).toBeUndefined()
  })

  it('reads back a cursor and "from the beginning", leaving no temp file', () => {
    writeCursor(file, { kind: 'cursor', cursor: 's=1;i=2;b=3' })
    expect(readCursor(file)).toEqual({ kind: 'cursor', cursor: 's=1;i=2;b=3' })
    writeCursor(file, { kind: 'beginning' })
    expect(readCursor(file)).toEqual({ kind: 'beginning' })
    expect(readdirSync(dir)).toEqual(['system.cursor'])
  })

  it.each([
    ['not JSON', '{"version":1,"cur'],
    ['no cursor', '{"version":1}'],
    ['zero-filled', '\0\0\0\0'],
  ])('keeps aside a damaged file (%s), says it, and starts as without one', (_what, text) => {
    writeFileSync(file, text)
    const reports: CorruptStateReport[] = []
    const stop = onCorruptState((report) => reports.push(report))
    try {
      expect(readCursor(file)).toBeUndefined()
    } finally {
      stop()
    }
    expect(reports).toMatchObject([{ file, name: 'journald-cursors' }])
    expect(readdirSync(dir).filter((name) => name.startsWith('system.cursor.corrupt-'))).toHaveLength(1)
  })

  it.each([['another version', '{"version":2,"cursor":"s=1"}', /has version 2; this agent reads version 1/]])(
    'stops on a file that is %s, naming it',
    (_what, text, message) => {
      writeFileSync(file, text)
      let thrown: unknown
      try {
        readCursor(file)
      } catch (err) {
        thrown = err
      }
      expect(thrown).toBeInstanceOf(JournaldError)
      expect(thrown).toMatchObject({
        code: JournaldErrorCodes.CURSOR_READ,
        path: file,
        message: expect.stringMatching(message),
      })
      expect((thrown as Error).message).toContain(file)
    },
  )

  it('says CURSOR_WRITE when the directory is gone', () => {
    expect(() => writeCursor(join(dir, 'missing', 'x.cursor'), { kind: 'beginning' })).toThrow(
      expect.objectContaining({ code: JournaldErrorCodes.CURSOR_WRITE }),
    )
  })
})
