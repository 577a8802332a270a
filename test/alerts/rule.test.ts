import { describe, expect, it } from 'vitest'
import { AlertsError, AlertsErrorCodes } from '../../alerts/errors'
import { parseLine } from '../../alerts/line'
import { normalizeRule, normalizeRules } from '../../alerts/rule'
import { lowestLevel, ruleSelects, selectRule } from '../../alerts/select'
import { jsonLine } from './helpers'

function errorOf(fn: () => unknown): AlertsError {
  try {
    fn()
  } catch (err) {
    if (err instanceof AlertsError) return err
    throw err
  }
  throw new Error('expected an AlertsError')
}

describe('rule selection', () => {
  it('defaults to one rule that takes error and fatal lines only', () => {
    const [rule] = normalizeRules(undefined)
    expect(rule?.name).toBe('default')
    expect(ruleSelects(rule!, jsonLine({ level: 50 }))).toBe(true)
    expect(ruleSelects(rule!, jsonLine({ level: 60 }))).toBe(true)
    expect(ruleSelects(rule!, jsonLine({ level: 40 }))).toBe(false)
    expect(ruleSelects(rule!, jsonLine({ level: 30 }))).toBe(false)
  })

  it('takes level names and string levels in lines', () => {
    const rule = normalizeRule({ level: 'warn' }, 'r')
    expect(ruleSelects(rule, jsonLine({ level: 'warning' }))).toBe(true)
    expect(ruleSelects(rule, jsonLine({ level: 'info' }))).toBe(false)
  })

  it('matches fields by equality and regex on dot paths', () => {
    const rule = normalizeRule({ fields: { 'err.type': 'DbError', 'req.url': { regex: '^/api/' } } }, 'r')
    expect(ruleSelects(rule, jsonLine({ err: { type: 'DbError' }, req: { url: '/api/users' } }))).toBe(true)
    expect(ruleSelects(rule, jsonLine({ err: { type: 'DbError' }, req: { url: '/health' } }))).toBe(false)
    expect(ruleSelects(rule, jsonLine({ err: { type: 'TypeError' }, req: { url: '/api/users' } }))).toBe(false)
    expect(ruleSelects(rule, jsonLine({}))).toBe(false)
  })

  it('does not follow prototype paths', () => {
    const rule = normalizeRule({ fields: { 'constructor.name': 'Object' } }, 'r')
    expect(ruleSelects(rule, jsonLine({}))).toBe(false)
  })

  it('matches the message by regex, with flags', () => {
    const rule = normalizeRule({ msg: { regex: 'timeout', flags: 'i' } }, 'r')
    expect(ruleSelects(rule, jsonLine({ msg: 'DB TIMEOUT after 3s' }))).toBe(true)
    expect(ruleSelects(rule, jsonLine({ msg: 'ok' }))).toBe(false)
  })

  it('matches the source', () => {
    const rule = normalizeRule({ source: ['api.log', 'worker.log'] }, 'r')
    const line = (source?: string) => parseLine('{"level":50,"msg":"x"}', source)
    expect(ruleSelects(rule, line('api.log'))).toBe(true)
    expect(ruleSelects(rule, line('other.log'))).toBe(false)
    expect(ruleSelects(rule, line())).toBe(false)
  })

  it('selects plain-text lines by their detected level', () => {
    const [rule] = normalizeRules(undefined)
    expect(ruleSelects(rule!, parseLine('[Sun Dec 04 04:47:44 2005] [error] mod_jk child in error state 6'))).toBe(true)
    expect(ruleSelects(rule!, parseLine('[Sun Dec 04 04:47:44 2005] [notice] all good'))).toBe(false)
    expect(ruleSelects(rule!, parseLine('no level at all'))).toBe(false)
  })

  it('picks the first rule that matches, and knows the lowest level any rule takes', () => {
    const rules = normalizeRules([{ name: 'db', fields: { 'err.type': 'DbError' } }, { name: 'warnings', level: 'warn' }])
    expect(selectRule(rules, jsonLine({ err: { type: 'DbError' } }))?.name).toBe('db')
    expect(selectRule(rules, jsonLine({ level: 40 }))?.name).toBe('warnings')
    expect(selectRule(rules, jsonLine({ level: 30 }))).toBeUndefined()
    expect(lowestLevel(rules)).toBe(40)
  })
})

describe('rule validation names the path', () => {
  it.each([
    [[{ bogus: 1 }], 'rules[0].bogus', AlertsErrorCodes.INVALID_RULE],
    [[{ level: 'loud' }], 'rules[0].level', AlertsErrorCodes.INVALID_RULE],
    [[{ msg: '(' }], 'rules[0].msg', AlertsErrorCodes.INVALID_REGEX],
    [[{ fields: { a: { regex: '[' } } }], 'rules[0].fields.a.regex', AlertsErrorCodes.INVALID_REGEX],
    [[{ group_wait: 'soon' }], 'rules[0].group_wait', AlertsErrorCodes.INVALID_DURATION],
    [[{ threshold: { count: 0, within: '1m' } }], 'rules[0].threshold.count', AlertsErrorCodes.INVALID_RULE],
    [[{ threshold: { count: 3, within: 'x' } }], 'rules[0].threshold.within', AlertsErrorCodes.INVALID_DURATION],
    [[{ escalation: [{ after: '5m', channels: ['sms'] }, { after: '1m', channels: ['voice'] }] }], 'rules[0].escalation[1].after', AlertsErrorCodes.INVALID_RULE],
    [[{ title: '{{msg' }], 'rules[0].title', AlertsErrorCodes.INVALID_TEMPLATE],
    [[{ name: 'a' }, { name: 'a' }], 'rules[1].name', AlertsErrorCodes.INVALID_RULE],
    [[], 'rules', AlertsErrorCodes.INVALID_RULE],
  ])('%j -> %s', (input, path, code) => {
    const err = errorOf(() => normalizeRules(input))
    expect(err.path).toBe(path)
    expect(err.code).toBe(code)
    expect(err.message.startsWith(`${path}: `)).toBe(true)
  })

  it('parses durations in ms and units', () => {
    const rule = normalizeRule({ group_wait: '30s', repeat_interval: '2h', resolve_after: 1500, threshold: { count: 5, within: '1m' } }, 'r')
    expect(rule.groupWaitMs).toBe(30_000)
    expect(rule.repeatIntervalMs).toBe(7_200_000)
    expect(rule.resolveAfterMs).toBe(1500)
    expect(rule.threshold).toEqual({ count: 5, withinMs: 60_000 })
  })

  it('adds an empty step 0 when escalation starts later', () => {
    const rule = normalizeRule({ escalation: [{ after: '10m', channels: ['sms'] }] }, 'r')
    expect(rule.escalation).toEqual([{ afterMs: 0, channels: [] }, { afterMs: 600_000, channels: ['sms'] }])
  })
})
