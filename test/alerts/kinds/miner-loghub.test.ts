// Grouping accuracy (GA, Zhu et al. ICSE-SEIP 2019) of the miner on loghub's nine labelled 2k samples,
// whole lines in: a line counts when its kind holds exactly the lines of its true group (`EventId`).
// The floors are what the miner reached when this test was written (mean 0.980, lowest set 0.925)
// minus 0.02: a change that makes grouping worse fails here. bench/kinds.js prints the full table.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createKindMiner } from '../../../alerts/kinds/miner'
import { parseLine } from '../../../alerts/line'

const corpus = join(__dirname, '..', '..', 'fixtures', 'corpus', 'loghub')
const SETS = ['Android', 'Apache', 'BGL', 'HDFS', 'Hadoop', 'OpenStack', 'Spark', 'Windows', 'Zookeeper']
const MEAN_FLOOR = 0.96
const SET_FLOOR = 0.905

/** The EventId column of a loghub structured CSV (quoted fields may hold commas and doubled quotes). */
function eventIds(csv: string): string[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i] as string
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') field += csv[++i] as string
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n') {
      rows.push([...row, field.replace(/\r$/, '')])
      row = []
      field = ''
    } else field += c
  }
  const column = (rows[0] as string[]).indexOf('EventId')
  return rows.slice(1).map((r) => r[column] as string)
}

function groupingAccuracy(predicted: readonly string[], truth: readonly string[]): number {
  const members = new Map<string, number[]>()
  predicted.forEach((p, i) => members.set(p, [...(members.get(p) ?? []), i]))
  const trueSize = new Map<string, number>()
  for (const t of truth) trueSize.set(t, (trueSize.get(t) ?? 0) + 1)
  let correct = 0
  for (const group of members.values()) {
    const t = truth[group[0] as number] as string
    if (trueSize.get(t) === group.length && group.every((i) => truth[i] === t)) correct += group.length
  }
  return correct / truth.length
}

function scoreSet(name: string): { name: string; ga: number; lines: number; labelled: number } {
  const lines = readFileSync(join(corpus, name, `${name}_2k.log`), 'utf8').split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  const truth = eventIds(readFileSync(join(corpus, name, `${name}_2k.log_structured.csv`), 'utf8'))
  const miner = createKindMiner({ max: 10_000 })
  const ids = lines.map((line) => miner.mine(parseLine(line.replace(/\r$/, ''), name)).id)
  const final = ids.map((id) => miner.resolve(name, id) ?? id)
  return { name, ga: groupingAccuracy(final, truth), lines: lines.length, labelled: truth.length }
}

describe('grouping accuracy on the nine labelled loghub sets (whole lines in)', () => {
  const scores = SETS.map(scoreSet)

  it.each(SETS)(`%s: GA >= ${SET_FLOOR}`, (name) => {
    const score = scores.find((s) => s.name === name)
    expect(score?.lines).toBe(score?.labelled)
    expect(score?.ga).toBeGreaterThanOrEqual(SET_FLOOR)
  })

  it(`mean GA >= ${MEAN_FLOOR}`, () => {
    expect(scores.reduce((sum, s) => sum + s.ga, 0) / scores.length).toBeGreaterThanOrEqual(MEAN_FLOOR)
  })
})

// The four sets first held out keep a floor each too (what they reached, minus 0.02), so a rule that
// lifts the nine by losing them fails; the three later sets (HPC, HealthApp, Proxifier) are only printed
// by bench/kinds.js, never asserted, so nothing is fitted to their labels (head rules 7-8 and mask
// rules 2b and 8 were written from their lines' layouts, then scored once).
const HELD_OUT_FLOORS: Record<string, number> = { Linux: 0.735, Mac: 0.826, OpenSSH: 0.98, Thunderbird: 0.956 }

describe('grouping accuracy on the four held-out loghub sets', () => {
  it.each(Object.entries(HELD_OUT_FLOORS))('%s: GA >= %s', (name, floor) => {
    const score = scoreSet(name)
    expect(score.lines).toBe(score.labelled)
    expect(score.ga).toBeGreaterThanOrEqual(floor)
  })
})
