import { describe, expect, it } from 'vitest'
import { fingerprint, fingerprintParts, maskMessage, topFrame } from '../../alerts/fingerprint'
import { jsonLine, ruleOf } from './helpers'

const rule = ruleOf({ name: 'r' })
const stack = (line: number) => `Error: boom\n    at connect (/app/db.js:${line}:7)\n    at main (/app/index.js:3:1)`

describe('fingerprint', () => {
  it('masks numbers, ids, hex and addresses in the message', () => {
    expect(
      maskMessage(
        'user 42 failed from 10.0.0.7:5432 req 9f1c2e3d4b5a6978 ptr 0xdeadBEEF id 123e4567-e89b-12d3-a456-426614174000',
      ),
    ).toBe('user <n> failed from <ip> req <hex> ptr <hex> id <uuid>')
  })

  it('takes the top stack frame', () => {
    expect(topFrame(stack(10))).toBe('at connect (/app/db.js:10:7)')
    expect(topFrame(undefined)).toBe('')
  })

  it('is the same for one failure repeated with different numbers', () => {
    const a = jsonLine({ msg: 'query 17 failed after 30ms', err: { type: 'DbError', stack: stack(10) } })
    const b = jsonLine({ msg: 'query 99 failed after 2ms', err: { type: 'DbError', stack: stack(10) } })
    expect(fingerprint(rule, a)).toBe(fingerprint(rule, b))
  })

  it('differs by error type, throw site or message shape', () => {
    const base = { msg: 'query failed', err: { type: 'DbError', stack: stack(10) } }
    const key = fingerprint(rule, jsonLine(base))
    expect(fingerprint(rule, jsonLine({ ...base, err: { type: 'TypeError', stack: stack(10) } }))).not.toBe(key)
    expect(fingerprint(rule, jsonLine({ ...base, err: { type: 'DbError', stack: stack(11) } }))).not.toBe(key)
    expect(fingerprint(rule, jsonLine({ ...base, msg: 'connection refused' }))).not.toBe(key)
  })

  it('uses only the group_by fields when given', () => {
    const byHost = ruleOf({ name: 'h', group_by: ['host', 'req.method'] })
    const a = jsonLine({ host: 'db-1', req: { method: 'GET' }, msg: 'one' })
    const b = jsonLine({ host: 'db-1', req: { method: 'GET' }, msg: 'two', err: { type: 'X' } })
    const c = jsonLine({ host: 'db-2', req: { method: 'GET' }, msg: 'one' })
    expect(fingerprint(byHost, a)).toBe(fingerprint(byHost, b))
    expect(fingerprint(byHost, a)).not.toBe(fingerprint(byHost, c))
    expect(fingerprintParts(byHost, a)).toEqual(['host="db-1"', 'req.method="GET"'])
  })

  it('is prefixed by the rule, so two rules never share an incident', () => {
    const other = ruleOf({ name: 'other' })
    const line = jsonLine({})
    expect(fingerprint(rule, line).startsWith('r:')).toBe(true)
    expect(fingerprint(other, line)).not.toBe(fingerprint(rule, line))
  })
})
