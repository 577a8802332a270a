// `kinds`' report (agent/cli/kinds/kind-report.ts), one test per numbered rule, and the table.
import { describe, expect, it } from 'vitest'
import {
  createKindTally,
  describeKinds,
  reportRows,
  SAMPLE_MAX,
  type KindRow,
} from '../../../agent/cli/kinds/kind-report'
import { createKindMiner } from '../../../alerts/kinds'
import { parseLine } from '../../../alerts/line'

const ref = (id: string, template = `template of ${id}`) => ({ id, template, created: false })
const at = (line: number, file = 'app.log') => ({ file, line })

describe('kinds report', () => {
  it('rule 1: a kind counts its events; first and last are its first and last event', () => {
    const tally = createKindTally()
    tally.add(ref('a'), 50, 'one', at(3))
    tally.add(ref('b'), 50, 'two', at(4))
    tally.add(ref('a'), 50, 'three', at(9, 'b.log'))
    const [a] = tally.rows()
    expect(a).toMatchObject({ id: 'a', count: 2, first: at(3), last: at(9, 'b.log') })
  })

  it('rule 2: the template is the last the miner gave; the sample the first event, cut', () => {
    const tally = createKindTally()
    tally.add(ref('a', 'Connection refused to 10.0.0.1'), 50, 'x'.repeat(SAMPLE_MAX + 10), at(1))
    tally.add(ref('a', 'Connection refused to <*>'), 50, 'later', at(2))
    const [a] = tally.rows()
    expect(a?.template).toBe('Connection refused to <*>')
    expect(a?.sample).toBe('x'.repeat(SAMPLE_MAX))
  })

  it('rule 3: the level is the worst among the events; none when no event had one', () => {
    const tally = createKindTally()
    tally.add(ref('a'), 40, 'a', at(1))
    tally.add(ref('a'), 60, 'a', at(2))
    tally.add(ref('a'), undefined, 'a', at(3))
    tally.add(ref('a'), 50, 'a', at(4))
    tally.add(ref('b'), undefined, 'b', at(5))
    expect(tally.rows().map((r) => r.level)).toEqual([60, undefined])
  })

  const row = (id: string, count: number, level: number | undefined, seen: number): KindRow => ({
    id,
    count,
    level,
    seen,
    first: at(seen),
    last: at(seen),
    template: id,
    sample: id,
  })

  it('rule 4: --level keeps that level and worse; a kind without a level is left out then', () => {
    const rows = [row('info', 9, 30, 0), row('warn', 5, 40, 1), row('fatal', 1, 60, 2), row('none', 7, undefined, 3)]
    expect(reportRows(rows, 40).map((r) => r.id)).toEqual(['warn', 'fatal'])
    expect(reportRows(rows, undefined).map((r) => r.id)).toEqual(['info', 'none', 'warn', 'fatal'])
  })

  it('rule 5: most events first; a tie to the kind seen first', () => {
    const rows = [row('late', 3, 50, 5), row('early', 3, 50, 1), row('most', 8, 50, 9)]
    expect(reportRows(rows, undefined).map((r) => r.id)).toEqual(['most', 'early', 'late'])
  })

  it('rule 6: at most max kinds gathered; the events of kinds past it counted, not listed', () => {
    const tally = createKindTally(2)
    for (const id of ['a', 'b', 'c', 'a', 'd', 'c']) tally.add(ref(id), 50, id, at(1))
    expect(tally.rows().map((r) => [r.id, r.count])).toEqual([
      ['a', 2],
      ['b', 1],
    ])
    expect(tally.unlisted()).toBe(3)
    const text = describeKinds({ files: ['x'], lines: 6, events: 6, kinds: tally.rows(), unlisted: 3 }, 100)
    expect(text).toMatch(/\n\(3 event\(s\) of kinds past the first 20000 not listed\)\n$/)
  })

  it('rule 7: a kind merged into another after some of its events is one row with it', () => {
    const tally = createKindTally()
    tally.add(ref('news', 'session opened for user news'), 30, 'news 1', at(17), 'auth')
    tally.add(ref('cyrus', 'session opened for user cyrus'), 40, 'cyrus 1', at(14), 'auth')
    tally.add(ref('cyrus', 'session opened for user <*>'), 30, 'root 1', at(92), 'auth')
    tally.add(ref('other'), 30, 'other', at(93), 'auth')
    const sources: (string | undefined)[] = []
    const resolve = (source: string | undefined, id: string): string | undefined => {
      sources.push(source)
      return id === 'news' ? 'cyrus' : id === 'other' ? undefined : id
    }
    const rows = tally.rows(resolve)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toEqual({
      id: 'cyrus',
      level: 40,
      count: 3,
      first: at(17),
      last: at(92),
      template: 'session opened for user <*>',
      sample: 'news 1',
      seen: 0,
    })
    expect(rows[1]).toMatchObject({ id: 'other', count: 1 })
    expect(new Set(sources)).toEqual(new Set(['auth']))
    // Without the miner's answer the rows are as gathered.
    expect(tally.rows().map((r) => r.id)).toEqual(['news', 'cyrus', 'other'])
  })

  it('rule 7 end to end: `kinds` shows a user name the miner merged as one kind, not its first value', () => {
    const tally = createKindTally()
    const miner = createKindMiner({ max: 100 })
    const users = ['cyrus', 'news', 'cyrus', 'news', 'root', 'cyrus']
    users.forEach((user, i) => {
      const raw = `Jun 15 04:06:18 combo su(pam_unix)[21416]: session opened for user ${user} by (uid=0)`
      const line = parseLine(raw, 'auth')
      tally.add(miner.mine(line), line.level, raw, at(i + 1), 'auth')
    })
    const rows = tally.rows((source, id) => miner.resolve(source, id))
    expect(rows.map((r) => [r.count, r.template])).toEqual([[6, 'session opened for user <*> by (uid=<*>)']])
  })

  it('the table: file:line with several files, each sample under its row, its control characters escaped', () => {
    const kinds = [
      { ...row('k1', 2, 50, 0), sample: 'ERROR bad \u001b[31mred\u001b[0m\r\nat frame', last: at(7, 'b.log') },
    ]
    const text = describeKinds({ files: ['app.log', 'b.log'], lines: 9, events: 2, kinds, unlisted: 0 }, 100)
    expect(text.split('\n')).toEqual([
      '9 line(s), 2 event(s), 1 kind(s)',
      'ID  LEVEL  COUNT  FIRST      LAST     TEMPLATE',
      'k1  error  2      app.log:0  b.log:7  k1',
      '    e.g. ERROR bad \\x1b[31mred\\x1b[0m',
      '',
    ])
  })
})
