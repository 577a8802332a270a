// The miner's first step: each kind of variable masked, the head of an unknown layout skipped, and
// the cuts that keep hostile input cheap.
import { describe, expect, it } from 'vitest'
import { maskedForm } from '../../../alerts/kinds/miner-form'
import { headEnd } from '../../../alerts/kinds/miner-head'
import { MAX_MESSAGE, MAX_TOKENS } from '../../../alerts/kinds/miner-mask'

const form = (message: string): string => maskedForm(message, false)

describe('masks', () => {
  it.each([
    ['numbers', 'retry 3 of 10 failed', 'retry <*> of <*> failed'],
    ['hex', 'bad pointer 0x7fed806eb5d in frame', 'bad pointer <*> in frame'],
    ['a UUID', 'job 9bc36dd9-91c5-447d-96ea-a692162415ae done', 'job <*> done'],
    ['an IP and port', 'connect to 10.251.73.220:50010 refused', 'connect to <*> refused'],
    ['an IPv6 address', 'peer fe80::1ff:fe23:4567:890a gone', 'peer <*> gone'],
    ['a MAC address', 'lease for 00:11:43:e3:ba:c3 expired', 'lease for <*> expired'],
    ['a path', 'cannot open /var/log/app.log now', 'cannot open <*> now'],
    ['a Windows path', 'loaded C:\\Windows\\winsxs\\core.dll ok', 'loaded <*> ok'],
    ['a package path', 'start com.tencent.mm/.ui.LauncherUI now', 'start <*> now'],
    ['a URL', 'fetch https://example.com/a?b=c failed', 'fetch <*> failed'],
    ['an e-mail address', 'mail to ops@example.com bounced', 'mail to <*> bounced'],
    ['a duration', 'took 250ms to answer', 'took <*> to answer'],
    ['a block id', 'block blk_-6952295868487656571 terminating', 'block <*> terminating'],
    ['a request id', 'request req-38101a0b done', 'request <*> done'],
    ['a value after its name', 'uid=0 euid=12 tty=NODEVssh', 'uid=<*> euid=<*> tty=NODEVssh'],
    ['a date with month and day names', 'at Fri Jun 24 18:55:11 2005 ok', 'at <*> ok'],
    [
      'a host name and its port (rule 2b)',
      'www.baidu.com:80 open through proxy.example.hk:5070,',
      '<*> open through <*>,',
    ],
    ['localhost and its port (rule 2b)', 'dial localhost:6379 refused', 'dial <*> refused'],
    ['a duration with its unit (rule 8)', 'lifetime <1 sec, took 3 minutes.', 'lifetime <*> took <*>'],
    ['a size with its unit (rule 8)', 'free 512 MB of 2 GiB', 'free <*> of <*>'],
    ['a count of bytes (rule 8)', 'wrote 451 bytes, 1 byte left', 'wrote <*> left'],
    [
      'a quantity restated in brackets (rule 9)',
      'sent 1190 bytes (1.16 KB), took 2 s (2.00 sec).',
      'sent <*> took <*>',
    ],
  ])('%s', (_, message, expected) => {
    expect(form(message)).toBe(expected)
  })

  it('a quoted string is one place, its own variables masked, blanks inside kept together', () => {
    expect(form('10.0.0.1 "GET /v2/servers HTTP/1.1" status: 200')).toBe('<*> "GET\u0001<*>" status: <*>')
    expect(form(`tag="View Lock", name=x`)).toBe('tag="View\u0001Lock", name=x')
    // An apostrophe inside a word opens nothing.
    expect(form(`don't retry 'now'`)).toBe(`don't retry 'now'`)
  })

  it('a run of variables is one, and a text line may drop a variable before its first word', () => {
    expect(form('from 1.2.3.4 5.6.7.8 at 9')).toBe('from <*> at <*>')
    expect(maskedForm('dn228 session closed', true)).toBe('session closed')
    expect(maskedForm('dn228 session closed', false)).toBe('<*> session closed')
  })

  it('rule 2b: a place in code is not a host, its name stays', () => {
    expect(form('at server.go:88 and main.py:12')).toBe('at server.go:<*> and main.py:<*>')
    expect(form('at com.android.server.wm.WindowState.removeLocked:1554 x')).toBe(
      'at com.android.server.wm.WindowState.removeLocked:<*> x',
    )
    // One label and no `localhost`: a name and its value (`retries:3`), not a host.
    expect(form('retries:3 left')).toBe('retries:<*> left')
  })

  it('rule 8: a unit of time only after a variable; `00:01` and `<1 sec` give one shape', () => {
    expect(form('lifetime 00:01')).toBe(form('lifetime <1 sec'))
    expect(form('wait ms later')).toBe('wait ms later')
  })

  it('rule 9: a size written with and without its restatement gives one shape, and only with a unit', () => {
    expect(form('close, 1190 bytes (1.16 KB) sent, 815 bytes received')).toBe(
      form('close, 0 bytes sent, 18846 bytes (18.4 MB) received'),
    )
    expect(form('close, 0 bytes sent')).toBe('close, <*> sent')
    // A bracketed number without a unit, or after a word, is not a restatement.
    expect(form('exit 3 (12 tries) now')).toBe('exit <*> (<*> tries) now')
    expect(form('size (12 KB) now')).toBe('size (<*> KB) now')
  })

  it('a bracketed variable keeps its brackets, so "(host)" and "()" meet at one place', () => {
    expect(form('connection from 1.2.3.4 (dsl-1.example.net) at x')).toBe('connection from <*> (<*>) at x')
  })
})

describe('the head of a layout no rule knows', () => {
  it.each([
    ['- 1131566461 2005.11.09 dn228 Nov 9 12:01:01 dn228/dn228 crond[2915]: session closed', 'crond[2915]:'],
    ['2024-01-02T03:04:05.678Z 4242 worker started', 'worker started'],
    ['[12:01:01] 77 - cache warmed up', 'cache warmed up'],
    // Rule 7: a program or logger name before a lone `-`, one rule-1 field allowed between them.
    ['[10.30 16:49:06] chrome.exe - proxy.example.hk:5070 open', 'proxy.example.hk:5070 open'],
    ['[07.26 13:30:34] chrome.exe *64 - www.baidu.com:80 close', 'www.baidu.com:80 close'],
    ['[07.26 17:30:16] 360AP.exe - intf.example.cn:80 close', 'intf.example.cn:80 close'],
    ['2024-01-02 03:04:05,123 - app.db - pool exhausted', 'pool exhausted'],
    // Rule 8: names before an epoch stamp, then rules 1-3 again (the flag after it).
    ['134681 node-246 unix.hw state_change.unavailable 1077804742 1 Component State Change', 'Component State'],
    ['2569061 Interconnect-0N03 switch_module error 1074120426 1 Linkerror event', 'Linkerror event'],
    ['2286759 full partition status 1061219795 -1 running', 'running'],
  ])('%s', (line, message) => {
    expect(line.slice(headEnd(line)).startsWith(message)).toBe(true)
  })

  it('a line that is all head is its own message', () => {
    expect(headEnd('2024-01-02 03:04:05 42')).toBe(0)
  })

  it('prose is not taken for head', () => {
    expect(headEnd('connection refused by peer')).toBe(0)
  })

  it('rule 7 needs a head field before the name, and a message after the dash', () => {
    expect(headEnd('chrome.exe - proxy open')).toBe(0)
    const line = '[12:01:01] worker - '
    expect(line.slice(headEnd(line))).toBe('worker - ')
    // A word that is not a name (a colon in it) before a dash is the message's.
    const sentence = '[12:01:01] note: - retry'
    expect(sentence.slice(headEnd(sentence))).toBe('note: - retry')
  })

  it('rule 8 takes a stamp only after names, only in its range, and only before a message', () => {
    // Capitalised words are prose, not names.
    expect(headEnd('Received block 1077804742 of size 12')).toBe(0)
    // Nine digits that are not a time since 2000.
    const id = '77 job queue 123456789 failed'
    expect(id.slice(headEnd(id))).toBe('job queue 123456789 failed')
    // Five names before the stamp are too many.
    const many = '77 a b c d e 1077804742 1 done'
    expect(many.slice(headEnd(many))).toBe('a b c d e 1077804742 1 done')
    expect(headEnd('77 node status 1077804742')).toBe(3)
  })
})

describe('hostile input', () => {
  it('a 10 MB line is mined from its first MAX_MESSAGE characters only, quickly', () => {
    const huge = `start ${'x1 '.repeat(3_500_000)}`
    const masked = maskedForm(huge, false)
    expect(masked.split(' ').length).toBeLessThanOrEqual(MAX_TOKENS)
    expect(masked.length).toBeLessThan(MAX_MESSAGE)
  })

  it('an unclosed quote and binary bytes are words like any other', () => {
    expect(form('"'.repeat(10_000)).length).toBeLessThanOrEqual(MAX_MESSAGE)
    const binary = String.fromCharCode(...Array.from({ length: 512 }, (_, i) => (i * 37) % 256))
    expect(typeof form(binary)).toBe('string')
  })
})
