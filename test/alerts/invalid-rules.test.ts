// Alertmanager-style: every bad-config case is a fixture file with the exact message it must give.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { normalizeRules } from '../../alerts/rule'

const dir = join(__dirname, '..', 'fixtures', 'alerts', 'invalid-rules')
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as { rules: unknown; error: string }] as const)

describe('invalid rule fixtures', () => {
  it('there are fixtures', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10)
  })

  it.each(cases)('%s', (_file, { rules, error }) => {
    expect(() => normalizeRules(rules)).toThrow(error)
    try {
      normalizeRules(rules)
    } catch (err) {
      expect((err as Error).message).toBe(error)
    }
  })
})
