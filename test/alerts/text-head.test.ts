import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileChannel } from '../../alerts/channels'
import { findLevel } from '../../alerts/detect-level'
import { fingerprint } from '../../alerts/fingerprint'
import { parseLine } from '../../alerts/line'
import { renderMessage } from '../../alerts/render'
import { syslogHeaderEnd, textMessage } from '../../alerts/text-head'
import { channelOf, createTestEngine, ruleOf, snapshotOf } from './helpers'

const corpus = join(__dirname, '..', 'fixtures', 'corpus', 'loghub')
const WHOLE_LINES = new Set(['Thunderbird', 'HPC', 'HealthApp', 'Proxifier'])
const message = (line: string): string => textMessage(line, findLevel(line))

describe('textMessage: the message without the header the format writes before it', () => {
  it.each([
    // log4j / Hadoop: timestamp, level, thread and logger go; an upper-case message stays whole.
    [
      '2015-10-18 18:04:11,034 ERROR [RMCommunicator Allocator] org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator: ERROR IN CONTACTING RM.',
      'ERROR IN CONTACTING RM.',
    ],
    ['2024-01-01 12:00:00.123 [main] ERROR com.foo.Bar - Failed to start', 'Failed to start'],
    [
      '17/06/09 20:10:40 INFO executor.CoarseGrainedExecutorBackend: Registered signal handlers',
      'Registered signal handlers',
    ],
    [
      '081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 terminating',
      'PacketResponder 1 terminating',
    ],
    [
      '2015-07-29 17:41:44,747 - WARN  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181:QuorumCnxManager@368] - Cannot open channel to 3',
      'Cannot open channel to 3',
    ],
    [
      '2024-01-01 12:00:00.123 ERROR 1234 --- [           main] o.s.b.SpringApplication                  : Application run failed',
      'Application run failed',
    ],
    [
      '2017-05-16 00:00:00.008 25746 INFO nova.osapi_compute.wsgi.server [req-38101a0b - - -] 10.11.10.1 "GET /v2 HTTP/1.1" status: 200',
      '10.11.10.1 "GET /v2 HTTP/1.1" status: 200',
    ],
    // An exception's name is the message, not a logger.
    ['2024-01-01 12:00:00 ERROR java.io.IOException: disk full', 'java.io.IOException: disk full'],
    // Python logging.
    ['ERROR:root:connection lost', 'connection lost'],
    ['2024-01-01 12:00:00,123 - myapp.db - ERROR - pool exhausted - retrying', 'pool exhausted - retrying'],
    // Apache 2.2 and 2.4, nginx.
    [
      '[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6',
      'mod_jk child workerEnv in error state 6',
    ],
    [
      '[Wed Oct 11 14:32:52.123 2023] [core:error] [pid 1234:tid 5678] [client 1.2.3.4:5678] AH00126: Invalid URI',
      'AH00126: Invalid URI',
    ],
    ['2024/01/01 12:00:00 [error] 123#0: *1 open() failed', '123#0: *1 open() failed'],
    // syslog: the program tag stays.
    [
      'Nov 25 10:00:01 host sshd[123]: error: maximum authentication attempts exceeded',
      'sshd[123]: error: maximum authentication attempts exceeded',
    ],
    ['<11>Nov 25 10:00:01 host app[7]: disk failure', 'app[7]: disk failure'],
    [
      '2024-11-25T10:00:01.123456+00:00 host postgres[99]: FATAL: the database system is shutting down',
      'postgres[99]: FATAL: the database system is shutting down',
    ],
    [
      '<131>1 2003-10-11T22:14:15.003Z host app 123 ID47 [exampleSDID@32473 iut="3" note="a \\] b"] disk failure',
      'disk failure',
    ],
    ['<165>1 2003-10-11T22:14:15.003Z host app - - - started', 'started'],
    // logfmt / slog / logrus: the msg value.
    [
      'time=2024-01-01T00:00:00.000Z level=ERROR msg="db down: \\"primary\\"" err="dial tcp: refused"',
      'db down: "primary"',
    ],
    ['t=2024-01-01T00:00:00+0000 lvl=eror msg=timeout peer=1.2.3.4', 'timeout'],
    ['time="2024-01-01T00:00:00Z" level=error msg="" err=x', 'msg="" err=x'],
    // glog, Android, Windows CBS, BGL, .NET.
    ['E1122 10:00:00.000000    123 main.go:10] connection refused', 'connection refused'],
    ['03-17 16:13:38.811  1702  2395 E ActivityManager: ANR in com.example', 'ANR in com.example'],
    ['E/ActivityManager( 1702): ANR in com.example', 'ANR in com.example'],
    ['2016-09-28 04:30:30, Error                 CBS    Failed to resolve package', 'Failed to resolve package'],
    [
      '- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL FATAL data TLB error interrupt',
      'data TLB error interrupt',
    ],
    ['fail: Microsoft.AspNetCore.Server.Kestrel[13] Connection id "0HL" failed', 'Connection id "0HL" failed'],
  ])('%s -> %s', (line, expected) => {
    expect(message(line)).toBe(expected)
  })

  it.each([
    // No level, or prose before the level token, or nothing after the header: the whole line.
    'just some text mentioning an error',
    'Something went wrong: ERROR code 5',
    '2024-01-01 12:00:00 ERROR',
    '[10.30 16:49:06] chrome.exe - proxy.cse.cuhk.edu.hk:5070 open through proxy',
    '',
  ])('%j stays whole', (line) => {
    expect(message(line)).toBe(line)
  })

  it('is never empty and always the end of the line, on every line of every corpus', () => {
    for (const name of readdirSync(corpus, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)) {
      const lines = readFileSync(join(corpus, name, `${name}_2k.log`), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
      let shorter = 0
      for (const line of lines) {
        const msg = message(line)
        expect(msg !== '' && line.endsWith(msg), `${name}: ${JSON.stringify(line)} -> ${JSON.stringify(msg)}`).toBe(
          true,
        )
        if (msg.length < line.length) shorter++
      }
      // Thunderbird's lines are labels before a syslog line, and HPC's, HealthApp's and Proxifier's
      // carry no level word, in no layout the rules know: whole.
      expect(shorter, name).toBe(WHOLE_LINES.has(name) ? 0 : lines.length)
    }
  })
})

describe('plain-text lines in alerts', () => {
  const hadoop =
    '2015-10-18 18:04:11,034 ERROR [RMCommunicator Allocator] org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator: ERROR IN CONTACTING RM.'

  it('an SMS says the message, not the timestamp and the logger', () => {
    const engine = createTestEngine({ channels: [{ type: 'sms' }] })
    const [page] = engine.ingest(hadoop, 0)
    expect(page?.message).toEqual({ type: 'sms', text: 'FIRING ERROR IN CONTACTING RM. (1x, default)' })
  })

  it('a mail body shows the message and the whole line', () => {
    const line = parseLine(hadoop)
    const mail = renderMessage(compileChannel(channelOf({ type: 'mail' })), {
      kind: 'firing',
      at: 0,
      newCount: 1,
      channels: undefined,
      channel: 'c',
      incident: snapshotOf(line),
    })
    if (mail.type !== 'mail') throw new Error('expected mail')
    expect(mail.text).toContain('message: ERROR IN CONTACTING RM.')
    expect(mail.text).toContain(`line: ${hadoop}`)
    expect(mail.html).toContain('<pre>2015-10-18 18:04:11,034 ERROR [RMCommunicator Allocator]')
  })

  it('repeats of one failure still group: timestamps, pids and threads are gone, numbers masked', () => {
    const rule = ruleOf({ name: 'r' })
    const a = parseLine('2024-01-01 12:00:00,001 ERROR [pool-1-thread-3] com.shop.Db: query 17 failed after 30ms')
    const b = parseLine('2024-01-02 08:13:59,999 ERROR [pool-7-thread-12] com.shop.Db: query 99 failed after 2ms')
    const other = parseLine('2024-01-02 08:13:59,999 ERROR [pool-7-thread-12] com.shop.Db: connection refused')
    expect(fingerprint(rule, a)).toBe(fingerprint(rule, b))
    expect(fingerprint(rule, a)).not.toBe(fingerprint(rule, other))
    const sshA = parseLine('<11>Nov 25 10:00:01 web-1 sshd[123]: fatal: timeout before authentication for 1.2.3.4')
    const sshB = parseLine('<11>Nov 26 11:20:02 web-1 sshd[4567]: fatal: timeout before authentication for 5.6.7.8')
    expect(fingerprint(rule, sshA)).toBe(fingerprint(rule, sshB))
  })
})

describe("syslogHeaderEnd: where rule 2's syslog header ends (the miner drops the tag after it)", () => {
  it.each([
    ['Jun 14 15:16:01 combo sshd(pam_unix)[19939]: authentication failure', 'sshd(pam_unix)[19939]:'],
    ['<11>Nov 25 10:00:01 web-1 sshd[123]: fatal: timeout', 'sshd[123]:'],
    ['2024-03-01T10:00:01.5+01:00 web-1 cron[77]: job done', 'cron[77]:'],
  ])('%s', (line, tag) => {
    expect(line.slice(syslogHeaderEnd(line)).startsWith(tag)).toBe(true)
    expect(syslogHeaderEnd(line)).toBe(line.length - textMessage(line, undefined).length)
  })

  it.each([
    '<165>1 2003-10-11T22:14:15.003Z host app 1234 ID47 - message',
    '2015-10-18 18:01:47,978 INFO [main] org.apache.Foo: started',
    '03-17 16:13:38.811  1702  2395 D WindowManager: opening app',
    'just words',
  ])('%s has none', (line) => {
    expect(syslogHeaderEnd(line)).toBe(-1)
  })
})
