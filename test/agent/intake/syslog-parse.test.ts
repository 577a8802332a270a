import { describe, expect, it } from 'vitest'
import { facilityName, readPriority } from '../../../agent/intake/syslog/message'
import { parse3164 } from '../../../agent/intake/syslog/rfc3164'
import { parse5424 } from '../../../agent/intake/syslog/rfc5424'
import { parseSyslog, syslogEvent, trimFrame } from '../../../agent/intake/syslog/syslog-event'

const modern = (text: string) => {
  const pri = readPriority(text)
  if (pri === undefined) throw new Error(`no PRI in ${text}`)
  return parse5424(text, pri.priority, pri.next)
}

describe('readPriority', () => {
  it('reads 1-3 digits up to 191 and refuses leading zeros, 4 digits, 192 and a missing >', () => {
    expect(readPriority('<0>x')).toEqual({ priority: 0, next: 3 })
    expect(readPriority('<191>x')).toEqual({ priority: 191, next: 5 })
    for (const bad of ['<01>x', '<1912>x', '<192>x', '<>x', '<12', 'x<12>', '<1a>']) {
      expect(readPriority(bad), bad).toBeUndefined()
    }
    expect(facilityName(23 * 8 + 3)).toBe('local7')
  })
})

describe('parse5424', () => {
  it('rule 1: only version 1 followed by a space is RFC 5424', () => {
    expect(modern('<34>1 2026-12-02T03:09:30Z host app 42 ID - hi')?.format).toBe('5424')
    expect(modern('<34>2 2026-12-02T03:09:30Z host app 42 ID - hi')).toBeUndefined()
    expect(modern('<34>Dec  2 03:09:30 host app: hi')).toBeUndefined()
  })

  it('rule 2: the header fields by single spaces, NILVALUE as undefined, a short header kept', () => {
    expect(modern('<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 - An event')).toMatchObject({
      priority: 165,
      timestamp: '2003-10-11T22:14:15.003Z',
      hostname: 'mymachine.example.com',
      appName: 'evntslog',
      procId: undefined,
      msgId: 'ID47',
      structuredData: undefined,
      message: 'An event',
    })
    expect(modern('<13>1 - - - - -')).toMatchObject({ timestamp: undefined, hostname: undefined, message: '' })
    expect(modern('<13>1 2026-12-02T03:09:30Z host')).toMatchObject({
      hostname: 'host',
      appName: undefined,
      message: '',
    })
  })

  it('rule 3: structured data elements with escaped quotes, backslashes and brackets', () => {
    const parsed = modern(
      '<28>1 2026-12-02T03:11:52Z vm myapp - ID47 [timeQuality tzKnown="1" isSynced="0"]' +
        '[zoo@123 tiger="hungry\\]x" q="say \\"hi\\"" path="C:\\\\tmp" odd="a\\nb"] hello',
    )
    expect(parsed?.structuredData).toEqual({
      timeQuality: { tzKnown: '1', isSynced: '0' },
      'zoo@123': { tiger: 'hungry]x', q: 'say "hi"', path: 'C:\\tmp', odd: 'a\\nb' },
    })
    expect(parsed?.message).toBe('hello')
  })

  it('rule 4: structured data that does not parse is left in the message', () => {
    expect(modern('<13>1 - h a - - [broken x="1" hello')).toMatchObject({
      structuredData: undefined,
      message: '[broken x="1" hello',
    })
    expect(modern('<13>1 - h a - - [id noequals] m')?.message).toBe('[id noequals] m')
    expect(modern('<13>1 - h a - - [id]x m')?.message).toBe('[id]x m')
  })

  it('rule 5: the message after one space, without a leading BOM; none at all is empty', () => {
    expect(modern('<13>1 - h a - - - \ufeffcafé  two spaces')?.message).toBe('café  two spaces')
    expect(modern('<13>1 - h a - - [a b="c"]')).toMatchObject({ structuredData: { a: { b: 'c' } }, message: '' })
  })

  it('rule 6: an SD-ID twice keeps both sets of parameters; __proto__ stays a plain key', () => {
    const parsed = modern('<13>1 - h a - - [x a="1"][x b="2" a="3"][__proto__ polluted="yes"] m')
    expect(parsed?.structuredData?.x).toEqual({ a: '3', b: '2' })
    expect(parsed?.structuredData?.['__proto__']).toEqual({ polluted: 'yes' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('parse3164', () => {
  it('the classic form: timestamp, hostname, tag[pid]', () => {
    expect(parse3164('<155>Dec  2 03:11:52 vm myapp[11705]: hello 3164')).toMatchObject({
      format: '3164',
      priority: 155,
      timestamp: 'Dec  2 03:11:52',
      hostname: 'vm',
      appName: 'myapp',
      procId: '11705',
      message: 'hello 3164',
    })
  })

  it('rule 1: a Cisco sequence number before the timestamp', () => {
    expect(parse3164('<189>52: *Mar  1 00:00:05.123: %SYS-5-CONFIG_I: Configured from console')).toMatchObject({
      sequence: '52',
      timestamp: 'Mar  1 00:00:05.123',
      hostname: undefined,
      msgId: 'SYS-5-CONFIG_I',
      message: '%SYS-5-CONFIG_I: Configured from console',
    })
  })

  it('rule 2: timestamps with a year, a zone, fractions, one-digit days and RFC 3339', () => {
    expect(parse3164('<13>Mar  1 2026 00:00:05 UTC: host tag: m')).toMatchObject({
      timestamp: 'Mar  1 2026 00:00:05 UTC',
      hostname: 'host',
    })
    expect(parse3164('<13>Dec 2 03:09:30 host tag: m').timestamp).toBe('Dec 2 03:09:30')
    expect(parse3164('<13>2026-12-02T03:09:30.123+00:00 host tag: m')).toMatchObject({
      timestamp: '2026-12-02T03:09:30.123+00:00',
      hostname: 'host',
      appName: 'tag',
    })
    expect(parse3164('<13>Foo  2 03:09:30 host tag: m')).toMatchObject({ timestamp: undefined, hostname: undefined })
  })

  it('rule 3: no hostname when the word after the timestamp is the tag, none without a timestamp', () => {
    expect(parse3164('<13>Dec  2 03:09:30 sshd[99]: Accepted key')).toMatchObject({
      hostname: undefined,
      appName: 'sshd',
      procId: '99',
      message: 'Accepted key',
    })
    expect(parse3164('<13>Dec  2 03:09:30 cron: job done')).toMatchObject({ hostname: undefined, appName: 'cron' })
    expect(parse3164('<13>kernel: oops')).toMatchObject({ hostname: undefined, appName: 'kernel', message: 'oops' })
  })

  it('rule 4: a first word that is not a tag is message', () => {
    expect(parse3164('<11>Dec  2 03:09:30 host disk full on /var')).toMatchObject({
      hostname: 'host',
      appName: undefined,
      message: 'disk full on /var',
    })
  })

  it('rule 5: a Cisco mnemonic is the msgid, the message kept whole', () => {
    expect(parse3164('<187>%LINK-3-UPDOWN: Interface Gi0/1, changed state to down')).toMatchObject({
      msgId: 'LINK-3-UPDOWN',
      message: '%LINK-3-UPDOWN: Interface Gi0/1, changed state to down',
    })
  })

  it('rule 6: no PRI: all message, user.notice', () => {
    expect(parse3164('just a line')).toMatchObject({ format: 'none', priority: 13, message: 'just a line' })
  })
})

describe('syslogEvent', () => {
  it('rule 1: RFC 5424 by its version, RFC 3164 otherwise', () => {
    expect(parseSyslog('<13>1 - h a - - - m').format).toBe('5424')
    expect(parseSyslog('<13>1: h a m').format).toBe('3164')
  })

  it('rule 2: severity to level: 0-2 fatal, 3 error, 4 warn, 5-6 info, 7 debug', () => {
    const levels = [0, 1, 2, 3, 4, 5, 6, 7].map((severity) => syslogEvent(`<${16 + severity}>m`, 's').line.level)
    expect(levels).toEqual([60, 60, 60, 50, 40, 30, 30, 20])
  })

  it('rule 3: the header fields in the record, absent ones left out', () => {
    const event = syslogEvent('<165>1 2003-10-11T22:14:15.003Z mymachine evntslog - ID47 [a b="c"] An event', 'net')
    expect(event.line).toMatchObject({ msg: 'An event', level: 30, source: 'net', json: false })
    expect(event.line.record).toEqual({
      msg: 'An event',
      level: 30,
      facility: 'local4',
      severity: 5,
      hostname: 'mymachine',
      app_name: 'evntslog',
      msgid: 'ID47',
      timestamp: '2003-10-11T22:14:15.003Z',
      structured_data: { a: { b: 'c' } },
    })
  })

  it('rule 4: the line end (CR, LF, NUL) is not part of the frame', () => {
    expect(trimFrame('<13>m\r\n\0')).toBe('<13>m')
    expect(syslogEvent('<11>m\n', 's').line.raw).toBe('<11>m')
  })
})
