// Rules as the engine runs them: written in the rule vocabulary (the YAML's keys), normalized by
// agent/config (whose tests cover every problem a rule can have), compiled by alerts/.
import { describe, expect, it } from 'vitest'
import { parseLine } from '../../alerts/line'
import { compileRules } from '../../alerts/rule'
import { lowestLevel, ruleSelects, selectRule } from '../../alerts/select'
import { jsonLine, ruleOf, rulesOf } from './helpers'

describe('rule selection', () => {
  it('defaults to one rule that takes error and fatal lines only', () => {
    const [rule] = compileRules(rulesOf(undefined))
    expect(rule?.name).toBe('default')
    expect(ruleSelects(rule!, jsonLine({ level: 50 }))).toBe(true)
    expect(ruleSelects(rule!, jsonLine({ level: 60 }))).toBe(true)
    expect(ruleSelects(rule!, jsonLine({ level: 40 }))).toBe(false)
    expect(ruleSelects(rule!, jsonLine({ level: 30 }))).toBe(false)
  })

  it('takes level names and string levels in lines', () => {
    const rule = ruleOf({ level: 'warn' })
    expect(ruleSelects(rule, jsonLine({ level: 'warning' }))).toBe(true)
    expect(ruleSelects(rule, jsonLine({ level: 'info' }))).toBe(false)
  })

  it('matches fields by equality and regex on dot paths', () => {
    const rule = ruleOf({ match: { 'err.type': 'DbError', 'req.url': '/^\\/api\\//' } })
    expect(ruleSelects(rule, jsonLine({ err: { type: 'DbError' }, req: { url: '/api/users' } }))).toBe(true)
    expect(ruleSelects(rule, jsonLine({ err: { type: 'DbError' }, req: { url: '/health' } }))).toBe(false)
    expect(ruleSelects(rule, jsonLine({ err: { type: 'TypeError' }, req: { url: '/api/users' } }))).toBe(false)
    expect(ruleSelects(rule, jsonLine({}))).toBe(false)
  })

  it('does not follow prototype paths', () => {
    const rule = ruleOf({ match: { 'constructor.name': 'Object' } })
    expect(ruleSelects(rule, jsonLine({}))).toBe(false)
  })

  it('matches the message by regex, with flags', () => {
    const rule = ruleOf({ message: '/timeout/i' })
    expect(ruleSelects(rule, jsonLine({ msg: 'DB TIMEOUT after 3s' }))).toBe(true)
    expect(ruleSelects(rule, jsonLine({ msg: 'ok' }))).toBe(false)
  })

  it('matches the source', () => {
    const rule = ruleOf({ source: ['api.log', 'worker.log'] })
    const line = (source?: string) => parseLine('{"level":50,"msg":"x"}', source)
    expect(ruleSelects(rule, line('api.log'))).toBe(true)
    expect(ruleSelects(rule, line('other.log'))).toBe(false)
    expect(ruleSelects(rule, line())).toBe(false)
  })

  it('selects plain-text lines by their detected level', () => {
    const [rule] = compileRules(rulesOf(undefined))
    expect(ruleSelects(rule!, parseLine('[Sun Dec 04 04:47:44 2005] [error] mod_jk child in error state 6'))).toBe(true)
    expect(ruleSelects(rule!, parseLine('[Sun Dec 04 04:47:44 2005] [notice] all good'))).toBe(false)
    expect(ruleSelects(rule!, parseLine('no level at all'))).toBe(false)
  })

  it('picks the first rule that matches, and knows the lowest level any rule takes', () => {
    const rules = compileRules(
      rulesOf([
        { name: 'db', match: { 'err.type': 'DbError' } },
        { name: 'warnings', level: 'warn' },
      ]),
    )
    expect(selectRule(rules, jsonLine({ err: { type: 'DbError' } }))?.name).toBe('db')
    expect(selectRule(rules, jsonLine({ level: 40 }))?.name).toBe('warnings')
    expect(selectRule(rules, jsonLine({ level: 30 }))).toBeUndefined()
    expect(lowestLevel(rules)).toBe(40)
  })
})

describe('compiled rules', () => {
  it('parses durations in ms and units', () => {
    const rule = ruleOf({
      group_wait: '30s',
      repeat_interval: '2h',
      resolve_after: 1500,
      threshold: { count: 5, within: '1m' },
    })
    expect(rule.groupWaitMs).toBe(30_000)
    expect(rule.repeatIntervalMs).toBe(7_200_000)
    expect(rule.resolveAfterMs).toBe(1500)
    expect(rule.threshold).toEqual({ count: 5, withinMs: 60_000 })
  })

  it('step 0 is notify, later steps are escalate', () => {
    const rule = ruleOf({ notify: 'chat', escalate: [{ after: '10m', notify: ['sms'] }] })
    expect(rule.escalation).toEqual([
      { afterMs: 0, channels: ['chat'] },
      { afterMs: 600_000, channels: ['sms'] },
    ])
  })

  it('a rule without notify notifies every channel it is given', () => {
    expect(ruleOf({}, ['chat', 'sms']).escalation).toEqual([{ afterMs: 0, channels: ['chat', 'sms'] }])
  })

  it('refuses two rules of one name (the config reports it first, with its place)', () => {
    const [a] = rulesOf([{ name: 'a' }])
    expect(() => compileRules([a!, a!])).toThrow('rules[1].name: duplicate rule name "a"')
  })
})
