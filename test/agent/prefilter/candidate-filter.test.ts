import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LineFormat } from '../../../agent/config/types'
import { toAlertLine } from '../../../agent/events/alert-line'
import { createCandidateFilter } from '../../../agent/prefilter/candidate-filter'
import {
  headLevel,
  jsonPrefixLevel,
  leadingTokenLevel,
  upperCaseNeedles,
} from '../../../agent/prefilter/level-evidence'
import { createChunkBatch, type LineBatch } from '../../../agent/tail/batch'
import { createLineSplitter } from '../../../agent/tail/line-splitter'

const corpus = join(__dirname, '..', '..', 'fixtures', 'corpus', 'loghub')
const FORMATS: readonly LineFormat[] = ['json', 'text', 'auto']
const THRESHOLDS = [10, 20, 30, 40, 50, 60]

/** Batches as the tailer makes them: `content` read in chunks of `chunkBytes` (a line that spans two chunks comes out whole, as a copy). */
function batchesOf(content: Buffer, chunkBytes: number, maxLineBytes = 256 * 1024): LineBatch[] {
  const splitter = createLineSplitter(0, maxLineBytes)
  const batches: LineBatch[] = []
  for (let at = 0; at < content.length; at += chunkBytes) {
    const chunk = Buffer.from(content.subarray(at, Math.min(content.length, at + chunkBytes)))
    const batch = createChunkBatch(
      { fileId: '1:1', followId: 1, generation: 0, path: 'app.log' },
      splitter.push(chunk, at),
      chunk,
      at,
      maxLineBytes,
    )
    if (batch !== undefined) batches.push(batch)
  }
  return batches
}

/** Lines the full path gives a level at or above the threshold that the filter did not keep (should be none), and how many it kept. */
function dropped(
  content: Buffer,
  format: LineFormat,
  threshold: number,
  chunkBytes: number,
): { missed: string[]; kept: number; selected: number; notJson: number } {
  const filter = createCandidateFilter(threshold)
  const missed: string[] = []
  let kept = 0
  let selected = 0
  let notJson = 0
  for (const batch of batchesOf(content, chunkBytes)) {
    // The filter blanks bytes of the read buffer while it searches: they must be back.
    const before = Buffer.from(batch.chunk?.buffer ?? Buffer.alloc(0))
    const scan = filter(batch)
    expect((batch.chunk?.buffer ?? Buffer.alloc(0)).equals(before)).toBe(true)
    notJson += scan.notJson
    kept += scan.candidates.length
    // Candidates are built apart from `lines`: the offset names the line.
    const candidates = new Set(scan.candidates.map((line) => line.offset))
    for (const line of batch.lines) {
      const text = line.data.toString('utf8')
      const level = toAlertLine(text, format, 'app').line.level
      if (level === undefined || !(level >= threshold)) continue
      selected++
      if (!candidates.has(line.offset)) missed.push(text)
    }
  }
  return { missed, kept, selected, notJson }
}

function corpusFiles(): { name: string; content: Buffer }[] {
  return readdirSync(corpus, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ name: entry.name, content: readFileSync(join(corpus, entry.name, `${entry.name}_2k.log`)) }))
}

const TRICKY = [
  '{"level":30,"msg":"fine"}',
  '{"level":50,"msg":"plain error"}',
  '{"level":60,"msg":"fatal"}',
  '{"level":30,"msg":"dup","level":50}',
  '{"level":30,"msg":"dup with space", "level":50}',
  '{"level":30,"msg":"dup with tab",\t"level":60}',
  '{"level":30,"msg":"escaped key","le\\u0076el":50}',
  '{"level":30,"msg":"dup as name","level":"error"}',
  '{"level":30,"msg":"broken json, says ERROR"',
  '{"level":30,"msg":"nested","req":{"level":50}}',
  '{"level": 50,"msg":"space after colon"}',
  '{"level" :50,"msg":"space before colon"}',
  '{"msg":"level last","level":50}',
  '{"level":"ERROR","msg":"name"}',
  '{"level":"Fatal","msg":"name"}',
  '{"level":5e1,"msg":"exponent"}',
  '{"level":300,"msg":"custom"}',
  '{"level":100,"msg":"custom"}',
  '{"level":030,"msg":"leading zero"}',
  '{"level":-1,"msg":"negative"}',
  '{"level":50.5,"msg":"fraction"}',
  '{"lvl":30,"msg":"[error] broken',
  '{"level":30,"msg":"constructor","level":"constructor"}',
  '2026-11-22 10:00:00 ERROR something failed',
  '2026-11-22 10:00:00 INFO all good ERROR later',
  '2026-11-22 10:00:00 [eRRoR] odd case',
  '2026-11-22 10:00:00 [Error] title case',
  '2026-11-22 10:00:00 [warning] warn',
  '2026-11-22 10:00:00 <crit> angle',
  '<3>kernel: syslog error',
  '<10>kernel: syslog crit',
  '<14>kernel: syslog info',
  'E1122 10:00:00.000 glog error',
  'F1122 10:00:00.000 glog fatal',
  'W1122 10:00:00.000 glog warning',
  'I1122 10:00:00.000 glog info',
  'ts=1 level=error msg=x',
  'ts=1 level = "Fatal" msg=x',
  'ts=1 level:\u00a0error msg=x',
  'ts=1 level=errors msg=not a level',
  'CRITICAL: disk full',
  'EMERGENCY now',
  'SEVERE: java',
  'stderr: lower-case prose about an error',
  '[constructor] not a level',
  '',
  '\r',
  'WARN something',
  'DEBUG details',
  'TRACE details',
  'notice: [notice] hello',
  'x'.repeat(400) + ' ERROR past the head',
  // The formats of #17: Android logcat, a head word, Windows CBS, Apache 2.4, logfmt keys.
  '03-17 16:13:38.811  1702  2395 E ActivityManager: ANR',
  '03-17 16:13:38.811  1702  2395 F libc: Fatal signal',
  '03-17 16:13:38.811  1702  2395 A libc: assert',
  '03-17 16:13:38.811  1702  2395 I Tag: ERROR inside',
  '03-17 16:13:38.811  1702  2395 Ex Tag: not a letter',
  '03-17 16:13:38.811 E/ActivityManager( 1702): ANR',
  '03-17 16:13:38.811  F/ActivityManager(1702): ANR',
  'E/ActivityManager( 1702): ANR',
  'A/x(1): y',
  'F/no pid: y',
  '12-31 23:59:59.999 1 2 E T: short',
  'error: connect ECONNREFUSED',
  'Fatal: boom',
  'fail: Microsoft.AspNetCore[1]',
  'PANIC:x',
  'crit: disk',
  'eror: log15 spelling at the head',
  'criticalxxxxx: too long',
  '2016-09-28 04:30:30, Error                 CBS    Failed',
  '2016-09-28 04:30:30, Critical CBS x',
  '2016-09-28 04:30:30, Fatal\tCBS x',
  '2016-09-28 04:30:30, Errors CBS not a level',
  '[Wed Oct 11 14:32:52 2023] [core:error] [pid 1:tid 2] AH00126: x',
  '[Wed Oct 11 14:32:52 2023] [ssl:emerg] x',
  '[Wed Oct 11 14:32:52 2023] [mod_x_1:Crit] x',
  '[Wed Oct 11 14:32:52 2023] [core:trace3] x',
  '[error1] digit after a word',
  '[:error] empty module',
  'ts=1 lvl=eror msg=x',
  'ts=1 lvl=crit msg=x',
  'ts=1 lvl="Fatal" msg=x',
  'ts=1 severity=ERROR msg=x',
  'ts=1 severity= "alert" msg=x',
  'ts=1 level=eror msg=x',
  'ts=1 level=fail msg=x',
  // A stamp, then the first token (leadingTokenLevel): it decides, or the line is searched as before.
  '2026-11-22 10:00:00,003 INFO  [main] x [error] later',
  '2026-11-22 10:00:00,003 ERROR [main] x',
  '2026-11-22 10:00:00,003INFO [error] no boundary before the word',
  '2026-11-22 10:00:00,003 INFO_X [error] no boundary after it',
  '2026-11-22 10:00:00,003 INFOS [error] not a token word',
  '2026-11-22 10:00:00,003 WARNING level=error',
  '2026-11-22 10:00:00,003 WARN1NG <error>',
  '2026-11-22 10:00:00,003 level=error INFO a key before the word',
  '2026-11-22 10:00:00,003 lvl=crit INFO',
  '2026-11-22 10:00:00,003 severity=error INFO',
  '2026-11-22 10:00:00,003 <error> INFO',
  '2026-11-22 10:00:00,003 [error] INFO',
  '2026-11-22 10:00:00,003 [core:crit] DEBUG',
  '2026-11-22 10:00:00,003 Error INFO title case is no token but a name: searched',
  '2026-11-22 10:00:00.003 - app.payments - ERROR - capture failed',
  '2026-11-22 10:00:00.003 - app - CRITICAL - down',
  '2026-11-22T10:00:00Z ERROR iso stamp',
  '2023-11-14T22:13:20.007Z INFO  [api-7f9c] retried after [error]',
  '2023-11-14T22:13:20.007+05:30 WARN level=error',
  '2023-11-14TRACE [error] no T skipped before a letter',
  '2023-11-14T22:13:20ZINFO [error] no boundary after Z',
  '[2026-11-22 10:00:00] production.ERROR: Monolog',
  '[2026-11-22 10:00:00] production.INFO: [error] later',
  '[12:error] INFO a module of digits',
  '[2026:crit] INFO',
  '[ INFO] [error] a space after the bracket',
  '[_x:error] INFO',
  '[12345678901234567890123456789012345:error] INFO a module past 30',
  '1<error> INFO',
  '12<error> INFO',
  '123<error> INFO',
  '1234<error> INFO',
  '1234567<crit> DEBUG',
  '12345678 INFO',
  '12 \u00ff\u00fe <error> INFO bytes above 0x80',
  '2026/11/22 10:00:00 [error] 7#7: nginx',
  '1700000000.123 FATAL epoch',
  `${'1'.repeat(70)} ERROR past the stamp limit`,
  'ERR',
  '12 CRIT',
  '12 CRITICALITY [error]',
  'été 2026 ERROR accents before',
]

describe('createCandidateFilter', () => {
  it('keeps every loghub line the full path selects, for every format and level threshold', () => {
    for (const { name, content } of corpusFiles()) {
      for (const format of FORMATS) {
        for (const threshold of THRESHOLDS) {
          for (const chunkBytes of [256 * 1024, 4096, 777]) {
            const result = dropped(content, format, threshold, chunkBytes)
            expect(result.missed, `${name} ${format} >= ${threshold} in ${chunkBytes}-byte reads`).toEqual([])
          }
        }
      }
    }
  })

  it('drops most lines below the threshold (it is a filter, not a pass-through)', () => {
    const apache = readFileSync(join(corpus, 'Apache', 'Apache_2k.log'))
    const result = dropped(apache, 'text', 60, 256 * 1024)
    expect(result.kept).toBeLessThan(100)
    const lines: string[] = []
    for (let i = 0; i < 2000; i++)
      lines.push(i % 100 === 0 ? `{"level":50,"time":${i},"msg":"failed"}` : `{"level":30,"time":${i},"msg":"ok"}`)
    const json = dropped(Buffer.from(`${lines.join('\n')}\n`), 'json', 50, 4096)
    expect(json.selected).toBe(20)
    expect(json.missed).toEqual([])
    // The 20 errors, plus at most one line per read that spans two reads.
    expect(json.kept).toBeLessThan(20 + Math.ceil(json.kept + 2000 * 30) / 4096 + 20)
    expect(json.notJson).toBe(0)
  })

  it('keeps the tricky lines the full path selects, wherever the reads cut them', () => {
    const content = Buffer.from(`${TRICKY.join('\n')}\n`)
    for (const format of FORMATS) {
      for (const threshold of THRESHOLDS) {
        for (const chunkBytes of [content.length + 1, 64, 13]) {
          expect(
            dropped(content, format, threshold, chunkBytes).missed,
            `${format} >= ${threshold} in ${chunkBytes}-byte reads`,
          ).toEqual([])
        }
      }
    }
  })

  it('keeps random mixes of level tokens and noise that the full path selects', () => {
    const pieces = [
      '{"level":',
      '30',
      '50',
      ',',
      '"level"',
      ':',
      ' ',
      '"msg":"x"',
      '}',
      'ERROR',
      'error',
      '[',
      ']',
      '<',
      '>',
      'level',
      '=',
      'Err',
      'FATAL',
      'E1122 ',
      '<3>',
      '\\u',
      'INFO',
      'warn',
      '"',
      'crit',
      'x',
      '\t',
      '{',
      // The formats of #17.
      '03-17 16:13:38.811 ',
      '03-17 16:13:38.811  1702  2395 ',
      '1702',
      'E ',
      'F',
      'A',
      'E/',
      '/',
      'Tag( 12): ',
      '(',
      ')',
      ', Error',
      ', Fatal ',
      '2016-09-28 04:30:30',
      '[core:',
      'core:',
      'mod_1:',
      '3',
      'lvl=',
      'severity=',
      'eror',
      'fail',
      'Fatal',
      'emerg',
      // Stamps before a first token (leadingTokenLevel).
      '2026-11-22 10:00:00,003 ',
      ' - ',
      'WARNING',
      'CRITICAL',
      'ERRORS',
      '_',
      'T10',
      'Z',
      '2026-11-22T10:00:00.003Z ',
      '[2026-11-22 10:00:00] ',
      '[12',
      ':',
    ]
    let seed = 42
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    const lines: string[] = []
    for (let i = 0; i < 6000; i++) {
      let line = random(3) === 0 ? '{"level":30,' : ''
      const count = 1 + random(8)
      for (let k = 0; k < count; k++) line += pieces[random(pieces.length)] as string
      lines.push(line)
    }
    const content = Buffer.from(`${lines.join('\n')}\n`)
    for (const format of FORMATS) {
      for (const threshold of [40, 50, 60]) {
        expect(dropped(content, format, threshold, 1000).missed, `${format} >= ${threshold}`).toEqual([])
      }
    }
  })

  it('keeps every line cut at max_line_bytes, wherever the reads cut it (the reader reports each one)', () => {
    const lines = [
      `{"level":30,"msg":"${'x'.repeat(100)}"}`,
      `INFO ${'y'.repeat(100)}`,
      '{"level":30,"msg":"short"}',
      'INFO short',
    ]
    const content = Buffer.from(`${lines.join('\n')}\n`)
    for (const chunkBytes of [content.length + 1, 37, 7]) {
      const kept: { offset: number; truncated: boolean }[] = []
      for (const batch of batchesOf(content, chunkBytes, 64))
        for (const line of createCandidateFilter(50)(batch).candidates)
          kept.push({ offset: line.offset, truncated: line.truncated })
      const first = Buffer.byteLength(lines[0] as string) + 1
      expect(
        kept.filter((line) => line.truncated),
        `${chunkBytes}-byte reads`,
      ).toEqual([
        { offset: first, truncated: true },
        { offset: first + Buffer.byteLength(lines[1] as string) + 1, truncated: true },
      ])
      // The short lines are dropped, unless a read cut through them.
      if (chunkBytes > content.length) expect(kept).toHaveLength(2)
    }
  })

  it('drops a stamped line whose first token is a level word below the threshold, whatever follows it', () => {
    const lines = [
      '2026-11-22 10:00:00,003 INFO  [main] retry after [error] upstream',
      '2026-11-22 10:00:00,004 WARN  [main] level=error in a message',
      '2026-11-22 10:00:00,005 ERROR [main] failed',
      '2026-11-22 10:00:00.006 - app - DEBUG - <fatal> in a payload',
      '2026-11-22 10:00:00,007 INFOS [main] [error] not a token word: searched, kept',
    ]
    const result = dropped(Buffer.from(`${lines.join('\n')}\n`), 'text', 50, 4096)
    expect(result.missed).toEqual([])
    expect(result.selected).toBe(2)
    expect(result.kept).toBe(2)
  })

  it('counts the lines that do not start with {', () => {
    const content = Buffer.from('{"level":30,"a":1}\nplain\n\n{"level":50}\n')
    const [batch] = batchesOf(content, 1024)
    expect(createCandidateFilter(50)(batch as LineBatch).notJson).toBe(2)
  })
})

describe('level evidence', () => {
  it('reads the level of a {"level":V, line in place, and nothing else', () => {
    const at = (text: string): number => jsonPrefixLevel(Buffer.from(text), 0, Buffer.byteLength(text))
    expect(at('{"level":30,"msg":"x"}')).toBe(30)
    expect(at('{"level":300,"msg":"x"}')).toBe(300)
    expect(at('{"level":3000,"msg":"x"}')).toBe(-1)
    expect(at('{"level":30}')).toBe(-1)
    expect(at('{"level":5e1,"msg":"x"}')).toBe(-1)
    expect(at('{"level": 30,"msg":"x"}')).toBe(-1)
    expect(at('{"msg":"x","level":30}')).toBe(-1)
  })

  it('reads the first token after a stamp: an upper-case level word on its own, or -1', () => {
    const at = (text: string): number => leadingTokenLevel(Buffer.from(text), 0, Buffer.byteLength(text))
    expect(at('2026-11-22 10:00:00,003 INFO  [main] x')).toBe(30)
    expect(at('2026-11-22 10:00:00,003 WARNING x')).toBe(40)
    expect(at('2026-11-22 10:00:00,003 ERROR')).toBe(50)
    expect(at('DEBUG x')).toBe(20)
    expect(at('2026-11-22 10:00:00,003INFO x')).toBe(-1)
    expect(at('2026-11-22 10:00:00,003 INFOS x')).toBe(-1)
    expect(at('2026-11-22 10:00:00,003 [INFO] x')).toBe(-1)
    expect(at('2026-11-22 10:00:00 level=info x')).toBe(-1)
    expect(at('2026-11-22T10:00:00Z INFO x')).toBe(30)
    expect(at('[2026-11-22 10:00:00] app.ERROR: x')).toBe(50)
    expect(at('[12:error] INFO')).toBe(-1)
    expect(at('2023-11-14TRACE x')).toBe(-1)
    expect(at(`${'1'.repeat(70)} INFO`)).toBe(-1)
  })

  it('searches for the upper-case level words at or above the threshold, shortest form only', () => {
    expect(upperCaseNeedles(50)).toEqual(['ALERT', 'CRIT', 'EMERG', 'ERR', 'FATAL', 'PANIC', 'SEVERE'])
    expect(upperCaseNeedles(60)).not.toContain('ERR')
    expect(upperCaseNeedles(40)).toContain('WARN')
  })

  it('reads the head rules in place: never below the level the full path gives', () => {
    const at = (text: string): number => headLevel(Buffer.from(text), 0, Buffer.byteLength(text))
    expect(at('03-17 16:13:38.811  1702  2395 E Tag: x')).toBe(50)
    expect(at('03-17 16:13:38.811 W/Tag( 1702): x')).toBe(40)
    expect(at('F/Tag( 1702): x')).toBe(60)
    expect(at('E1122 10:00:00.000 x')).toBe(50)
    expect(at('fail: x')).toBe(50)
    expect(at('Nov 25 10:00:01 host app: x')).toBe(-1)
    expect(at('2015-10-18 18:04:11,034 ERROR x')).toBe(-1)
    // Windows CBS: the word after the stamp's `, ` (the full path's [A-Z][a-z]{2,10}).
    expect(at('2016-09-28 04:30:30, Error                 CBS    Failed')).toBe(50)
    expect(at('2016-09-28 04:30:30, Critical CBS x')).toBe(60)
    expect(at('2016-09-28 04:30:30, Info   CBS x')).toBe(30)
    expect(at('2016-09-28 04:30:30, Errors CBS not a level')).toBe(-1)
    expect(at('2016-09-28 04:30:30,Error CBS x')).toBe(-1)
  })
})
