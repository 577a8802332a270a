// miner-head.ts rules 4-6: the TAG of a syslog message is head for the miner (rules 1-3, the head of a
// line no layout matched, are in miner-mask.test.ts). `messageHeadEnd` is handed what parseLine found.
import { describe, expect, it } from 'vitest'
import { messageHeadEnd } from '../../../alerts/kinds/miner-head'
import { parseLine } from '../../../alerts/line'

const mined = (raw: string): string => {
  const message = parseLine(raw, 'app').msg
  return message.slice(messageHeadEnd(raw, message))
}

describe('the TAG of a syslog message', () => {
  it('rule 4: a name, a parenthesised sub-name, a [pid] and a responsible process before the colon are head', () => {
    expect(mined('Jun 14 15:16:01 combo sshd(pam_unix)[19939]: check pass; user unknown')).toBe(
      'check pass; user unknown',
    )
    expect(mined('Jun 14 15:16:02 combo gdm(pam_unix)[2803]: check pass; user unknown')).toBe(
      'check pass; user unknown',
    )
    expect(mined('Jul 27 14:41:59 combo rpc.statd[1634]: Version 1.0.6 Starting')).toBe('Version 1.0.6 Starting')
    expect(mined('Jun 19 04:09:02 combo cups: cupsd startup succeeded')).toBe('cupsd startup succeeded')
    expect(mined('<11>Nov 25 10:00:01 web-1 /usr/sbin/cron[77]: job done')).toBe('job done')
    expect(mined('Jul  1 09:29:02 mac-1 sandboxd[129] ([31211]): QQ(31211) deny mach-lookup')).toBe(
      'QQ(31211) deny mach-lookup',
    )
    expect(mined('2024-03-01T10:00:01.5Z web-1 sshd[123]: Accepted publickey for deploy')).toBe(
      'Accepted publickey for deploy',
    )
  })

  it('rule 5: a name with blanks is a TAG only before its [pid]', () => {
    expect(mined('Jul  1 09:04:37 mac-1 Microsoft Word[14463]: Cocoa scripting error')).toBe('Cocoa scripting error')
    expect(mined('Jul  1 09:04:37 host Out of memory: Kill process 4242')).toBe('Out of memory: Kill process 4242')
  })

  it('rule 6: a TAG with nothing after it is kept', () => {
    const line = 'Jun 14 15:16:01 combo kernel: '
    expect(mined(line).startsWith('kernel:')).toBe(true)
    expect(mined('Jun 14 15:16:01 combo sshd[12]:')).toBe('sshd[12]:')
  })

  it('only the syslog layouts lose a leading `word:`: other layouts and unknown heads keep it', () => {
    expect(mined('03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogs: opening app')).toBe(
      'printFreezingDisplayLogs: opening app',
    )
    expect(mined('2015-10-18 18:01:47,978 INFO [main] handler: connection reset')).toBe('handler: connection reset')
    expect(mined('- 1131566461 2005.11.09 dn228 Nov 9 12:01:01 dn228/dn228 crond[2915]: session closed')).toBe(
      'crond[2915]: session closed',
    )
    expect(mined('plain words: not a syslog line')).toBe('plain words: not a syslog line')
  })

  it('the alerts keep the TAG: the line’s message is not changed', () => {
    const raw = 'Jun 14 15:16:01 combo sshd(pam_unix)[19939]: check pass; user unknown'
    expect(parseLine(raw, 'app').msg).toBe('sshd(pam_unix)[19939]: check pass; user unknown')
  })
})
