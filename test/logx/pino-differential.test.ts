// Differential test with pino 10 as the oracle: random option sets and call sequences run on both
// loggers, writing to memory with the clock pinned; every line, event, value read back and error
// thrown must be the same, byte for byte.
//
// `npm run test:pino-differential` runs a longer, unseeded round. Environment switches:
//   LOGX_DIFF_RUNS=n     cases to run (10,000 by default)
//   LOGX_DIFF_SEED=n     the seed (30 by default; "random" for a new one, printed on failure)
//   LOGX_DIFF_SURVEY=1   do not stop at the first difference: count them and print a few
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { optionsArb, type Library } from './differential/options'
import { opsArb } from './differential/calls'
import { runCase, type CaseRecipe } from './differential/run-case'

const RUNS = Number(process.env.LOGX_DIFF_RUNS ?? 10_000)
const SEED_SETTING = process.env.LOGX_DIFF_SEED ?? '30'
const SEED = SEED_SETTING === 'random' ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(SEED_SETTING)

// Both libraries read the wall clock and the monotonic clock when they load (isoTimeNano starts
// from them), so both load under the same pinned clocks, and each case pins them again.
const LOAD_MS = 1_764_000_000_000
const LOAD_HR = 5_000_000_000n
const realDateNow = Date.now
const realHrtimeBigint = process.hrtime.bigint

function pinClocks(ms: number, elapsedNs: bigint): void {
  Date.now = () => ms
  process.hrtime.bigint = () => LOAD_HR + elapsedNs
}

function restoreClocks(): void {
  Date.now = realDateNow
  process.hrtime.bigint = realHrtimeBigint
}

let pinoLib: Library
let logxLib: Library

beforeAll(async () => {
  pinClocks(LOAD_MS, 0n)
  try {
    const pino = (await import('pino')).default as any
    const logx = (await import('../../logx/index.js')).default as any
    pinoLib = {
      name: 'pino',
      factory: pino,
      stdSerializers: pino.stdSerializers,
      stdTimeFunctions: pino.stdTimeFunctions,
    }
    logxLib = {
      name: 'logx',
      factory: logx,
      stdSerializers: logx.stdSerializers,
      stdTimeFunctions: logx.stdTimeFunctions,
    }
  } finally {
    restoreClocks()
  }
})
afterAll(restoreClocks)

const caseArb: fc.Arbitrary<CaseRecipe> = fc.record({
  options: optionsArb,
  ops: opsArb,
  now: fc.constantFrom(LOAD_MS, LOAD_MS + 1_234, 0, 999, 1_700_000_000_999, 253_402_300_799_999),
})

function compareCase(recipe: CaseRecipe): { expected: string[]; actual: string[]; pinoThrew: boolean } {
  pinClocks(recipe.now, BigInt(recipe.now % 1000) * 1_000_007n)
  // A process warning is global state; what matters here is the lines.
  const warn = process.emitWarning
  process.emitWarning = () => {}
  // Stacks are pinned where they are written; capturing real ones (pino reads its caller's on
  // every construction) would be most of the run's time.
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    const expected = runCase(pinoLib, recipe)
    const actual = runCase(logxLib, recipe, expected.threwAt)
    return { expected: expected.transcript, actual: actual.transcript, pinoThrew: expected.threwAt.length > 0 }
  } finally {
    process.emitWarning = warn
    Error.stackTraceLimit = stackTraceLimit
    restoreClocks()
  }
}

function survey(): void {
  const samples = fc.sample(caseArb, { seed: SEED, numRuns: RUNS })
  let same = 0
  let pinoThrew = 0
  const shown: string[] = []
  for (const recipe of samples) {
    const { expected, actual, pinoThrew: threw } = compareCase(recipe)
    if (threw) pinoThrew++
    if (JSON.stringify(expected) === JSON.stringify(actual)) {
      same++
      continue
    }
    if (shown.length < 8) {
      const at = Math.max(expected.length, actual.length)
      let first = 0
      while (first < at && expected[first] === actual[first]) first++
      shown.push(JSON.stringify(recipe.options) + '\n  pino: ' + expected[first] + '\n  logx: ' + actual[first])
    }
  }
  console.log(
    `identical: ${same} / ${samples.length} (pino threw from a log call in ${pinoThrew})\n${shown.join('\n')}`,
  )
}

describe('pino 10 as the oracle', () => {
  it(
    `${RUNS} random option sets and call sequences write what pino writes (seed ${SEED})`,
    () => {
      if (process.env.LOGX_DIFF_SURVEY === '1') return survey()
      fc.assert(
        fc.property(caseArb, (recipe) => {
          const { expected, actual } = compareCase(recipe)
          expect(actual).toEqual(expected)
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: RUNS > 20_000 },
      )
    },
    Math.max(600_000, RUNS * 30),
  )
})
