// A journal entry as alerts see it: msg, level, the fields rules match, and a raw text that
// replays to the same line (an incident stored as pending, after a restart).
import { describe, expect, it } from 'vitest'
import { toAlertLine } from '../../../agent/events/alert-line'
import { entryToAlertLine, parseEntryLine, type JournalEntry } from '../../../agent/journald/entry'

const CURSOR =
  's=193b7a352ab042849e9c8a0decf28132;i=3;b=0123456789abcdef0123456789abcdef;m=3;t=6611ef9e35;x=45bd9942f2318d35'

function entry(fields: Record<string, unknown>): JournalEntry {
  const parsed = parseEntryLine(JSON.stringify({ __CURSOR: CURSOR, ...fields }))
  if (parsed === undefined) throw new Error('not an entry')
  return parsed
}

const nginx = (priority: string, message: unknown) =>
  entry({
    MESSAGE: message,
    PRIORITY: priority,
    _SYSTEMD_UNIT: 'nginx.service',
    _HOSTNAME: 'web-1',
    __REALTIME_TIMESTAMP: '1795635517488174',
  })

describe('a journal entry as an alert line', () => {
  it('takes msg from MESSAGE, the level from PRIORITY, unit and host from the trusted fields, and names its source', () => {
    const line = entryToAlertLine(nginx('3', 'upstream timed out'), 'system')
    expect(line).toMatchObject({ msg: 'upstream timed out', level: 50, source: 'system', json: true })
    expect(line.record).toMatchObject({
      msg: 'upstream timed out',
      level: 50,
      unit: 'nginx.service',
      host: 'web-1',
      MESSAGE: 'upstream timed out',
      PRIORITY: '3',
      _SYSTEMD_UNIT: 'nginx.service',
      __REALTIME_TIMESTAMP: '1795635517488174',
    })
  })

  it('maps every syslog priority the way <PRI> text lines are mapped', () => {
    const levels = ['0', '1', '2', '3', '4', '5', '6', '7'].map((p) => entryToAlertLine(nginx(p, 'x'), 'system').level)
    expect(levels).toEqual([60, 60, 60, 50, 40, 30, 30, 20])
  })

  it('reads a level from the message head when the entry has no PRIORITY', () => {
    expect(entryToAlertLine(entry({ MESSAGE: 'ERROR disk full' }), 'system').level).toBe(50)
    expect(entryToAlertLine(entry({ MESSAGE: 'all good' }), 'system').level).toBeUndefined()
    expect(entryToAlertLine(entry({ MESSAGE: 'ERROR but priority says info', PRIORITY: '6' }), 'system').level).toBe(30)
  })

  it('decodes a binary MESSAGE (an array of bytes) as UTF-8, without its trailing newline', () => {
    const bytes = [...Buffer.from('crash in \u00e9tape 2\x07\n')]
    const line = entryToAlertLine(nginx('2', bytes), 'system')
    expect(line.msg).toBe('crash in \u00e9tape 2\x07')
    expect(line.record.MESSAGE).toBe('crash in \u00e9tape 2\x07\n')
    expect(line.level).toBe(60)
  })

  it('takes a null MESSAGE (not printed) as an empty message', () => {
    expect(entryToAlertLine(nginx('3', null), 'system')).toMatchObject({ msg: '', level: 50 })
  })

  it('keeps a repeated field as the list of its values; msg is the first message', () => {
    const line = entryToAlertLine(
      entry({ MESSAGE: ['first', [0x73, 0x65, 0x63, 0x6f, 0x6e, 0x64]], PRIORITY: '4', TAG: ['a', 'b'] }),
      'system',
    )
    expect(line.msg).toBe('first')
    expect(line.record.MESSAGE).toEqual(['first', 'second'])
    expect(line.record.TAG).toEqual(['a', 'b'])
  })

  it('leaves the cursor out of the record and gives it to the reader', () => {
    const parsed = nginx('3', 'x')
    expect(parsed.cursor).toBe(CURSOR)
    expect(entryToAlertLine(parsed, 'system').record).not.toHaveProperty('__CURSOR')
  })

  it('has no unit or host when the entry has no _SYSTEMD_UNIT or _HOSTNAME', () => {
    const record = entryToAlertLine(entry({ MESSAGE: 'kernel says hi', PRIORITY: '5' }), 'system').record
    expect(record).not.toHaveProperty('unit')
    expect(record).not.toHaveProperty('host')
  })

  it('replays from its raw text to the same level, message and fields', () => {
    const line = entryToAlertLine(nginx('3', 'upstream timed out'), 'system')
    const { line: replayed, parseError } = toAlertLine(line.raw, 'json', 'system')
    expect(parseError).toBe(false)
    expect(replayed).toMatchObject({ level: 50, msg: 'upstream timed out', source: 'system' })
    expect(replayed.record).toEqual(line.record)
  })

  it('is not an entry when the line is not a JSON object', () => {
    expect(parseEntryLine('-- No entries --')).toBeUndefined()
    expect(parseEntryLine('[1,2]')).toBeUndefined()
    expect(parseEntryLine('{"MESSAGE":"cut sho')).toBeUndefined()
  })

  it('keeps a field named like a prototype key as data', () => {
    const parsed = parseEntryLine('{"__proto__":"x","MESSAGE":"m","PRIORITY":"3"}')
    const line = entryToAlertLine(parsed as JournalEntry, 'system')
    expect(Object.getPrototypeOf(line.record)).toBe(Object.prototype)
    expect(Object.hasOwn(line.record, '__proto__')).toBe(true)
  })
})
