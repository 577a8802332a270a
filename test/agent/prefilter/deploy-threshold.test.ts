// The pre-filter's threshold with deploy watches (agent/prefilter/deploy-threshold.ts), one test per rule.
import { describe, expect, it } from 'vitest'
import type { RuleConfig } from '../../../alerts'
import { ANY_LEVEL, deployThreshold } from '../../../agent/prefilter/deploy-threshold'

const ERROR = 50
const regressed = (sources: string[] | undefined): RuleConfig =>
  ({
    name: 'back',
    minLevel: ERROR,
    kinds: { type: 'regressed', quietMs: 1000, deploys: { sources, match: [] } },
  }) as unknown as RuleConfig
const plain = { name: 'errors', minLevel: ERROR } as unknown as RuleConfig

describe('deployThreshold', () => {
  it('rule 1: a source whose deploys a regressed rule watches keeps every line (named, or any source)', () => {
    expect(deployThreshold([plain, regressed(['app'])], 'app', ERROR)).toBe(ANY_LEVEL)
    expect(deployThreshold([regressed(undefined)], 'db', ERROR)).toBe(ANY_LEVEL)
  })

  it('rule 2: any other source keeps the rules lowest level', () => {
    expect(deployThreshold([plain, regressed(['app'])], 'db', ERROR)).toBe(ERROR)
    const noDeploys = { ...regressed(['app']), kinds: { type: 'regressed', quietMs: 1, deploys: undefined } }
    expect(deployThreshold([noDeploys as RuleConfig], 'app', ERROR)).toBe(ERROR)
  })
})
