import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectLevel } from '../../alerts/detect-level'
import { levelFromName } from '../../alerts/levels'

const corpus = join(__dirname, '..', 'fixtures', 'corpus', 'loghub')

/** RFC 4180 rows: quoted fields may hold commas and doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else if (c !== '\r') field += c
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows
}

function groundTruth(name: string): { lines: string[]; levels: (number | undefined)[] } {
  const lines = readFileSync(join(corpus, name, `${name}_2k.log`), 'utf8').split('\n').filter((l) => l !== '')
  const [header, ...rows] = parseCsv(readFileSync(join(corpus, name, `${name}_2k.log_structured.csv`), 'utf8'))
  const column = (header ?? []).indexOf('Level')
  return { lines, levels: rows.map((r) => levelFromName(r[column] ?? '')) }
}

describe('detectLevel on the loghub corpora (ground truth from the CSVs)', () => {
  for (const name of ['Apache', 'HDFS', 'Spark', 'Zookeeper']) {
    it(`${name}: at least 99% of lines get the labelled level`, () => {
      const { lines, levels } = groundTruth(name)
      expect(lines.length).toBe(levels.length)
      let right = 0
      lines.forEach((line, i) => {
        if (detectLevel(line) === levels[i]) right++
      })
      expect(right / lines.length).toBeGreaterThanOrEqual(0.99)
    })
  }

  // Linux syslog and OpenSSH lines carry no level (the CSV's Level column of Linux is the host
  // name): detection must not invent errors from words inside the message ("authentication
  // failure", "error: Received disconnect"). The only lines taken for errors are logrotate's
  // "ALERT exited abnormally", where ALERT is the program's own severity word.
  for (const name of ['Linux', 'OpenSSH']) {
    it(`${name}: unlabelled lines are not taken for errors`, () => {
      const lines = readFileSync(join(corpus, name, `${name}_2k.log`), 'utf8').split('\n').filter((l) => l !== '')
      const errors = lines.filter((line) => (detectLevel(line) ?? 0) >= 50)
      expect(errors.filter((line) => !/ ALERT /.test(line))).toEqual([])
      expect(errors.length / lines.length).toBeLessThan(0.03)
    })
  }
})

describe('detectLevel formats', () => {
  it.each([
    ['[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6', 50],
    ['[Sun Dec 04 04:47:44 2005] [notice] workerEnv in error state 6', 30],
    ['2015-07-29 17:41:44,747 - WARN  [QuorumPeer[myid=1]/0:0:0:0:0:0:0:0:2181] - Notification', 40],
    ['17/06/09 20:10:40 INFO executor.Backend: Registered', 30],
    ['time=2024-01-01 level=error msg="db down"', 50],
    ['<11>Jan  1 00:00:00 host app: disk failure', 50],
    ['<14>Jan  1 00:00:00 host app: started', 30],
    ['E1122 10:00:00.000000 123 main.go:10] boom', 50],
    ['F1122 10:00:00.000000 123 main.go:10] boom', 60],
    ['2024-01-01T00:00:00Z FATAL out of memory', 60],
    ['2024-01-01T00:00:00Z CRITICAL out of memory', 60],
    ['{"level":50,"time":1,"msg":"cut sho', 50],
    ['just some text mentioning an error', undefined],
  ])('%s -> %s', (line, level) => {
    expect(detectLevel(line)).toBe(level)
  })
})
