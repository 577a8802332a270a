// What the console commands accept before they send anything: --match, --for, an incident id.
import { describe, expect, it } from 'vitest'
import { actorName, findIncident } from '../../../agent/cli/ack-command'
import { parseFor, parseMatchers } from '../../../agent/cli/silence-command'
import { incident } from './fake-console'

describe('--match', () => {
  it('splits at the first =, keeps a /regex/ as written', () => {
    expect(parseMatchers(['rule=db', 'msg=a=b', 'title=/time ?out/i'])).toEqual({
      ok: true,
      value: { rule: 'db', msg: 'a=b', title: '/time ?out/i' },
    })
  })

  it('refuses what is not key=value, a key given twice, a pattern that does not compile', () => {
    expect(parseMatchers(['=db'])).toMatchObject({
      ok: false,
      message: expect.stringContaining('--match "=db": expected key=value'),
    })
    expect(parseMatchers(['rule='])).toMatchObject({
      ok: false,
      message: expect.stringContaining('--match "rule=": expected key=value'),
    })
    expect(parseMatchers(['rule=a', 'rule=b'])).toEqual({ ok: false, message: '--match: rule is given twice' })
    expect(parseMatchers(['msg=/a/g'])).toEqual({
      ok: false,
      message: '--match "msg=/a/g": unsupported regex flag "g" (allowed: i, m, s, u)',
    })
    expect(parseMatchers([])).toMatchObject({ ok: false })
  })
})

describe('--for', () => {
  it('takes the config grammar and refuses zero and bare numbers', () => {
    expect(parseFor('1h30m')).toEqual({ ok: true, value: '1h30m' })
    expect(parseFor('90')).toMatchObject({
      ok: false,
      message: expect.stringContaining('--for "90": expected a duration'),
    })
    expect(parseFor('0s')).toEqual({ ok: false, message: '--for "0s": must be longer than 0' })
  })
})

describe('<incident>', () => {
  const open = [incident('errors:3fa9c0d1e2f3a4'), incident('errors:3fb0000000aaaa'), incident('err:3fa9ffffffffff')]

  it('an exact key wins; a prefix of the key or of its hash part must be unique', () => {
    expect(findIncident(open, 'errors:3fa9c0d1e2f3a4')).toMatchObject({
      kind: 'one',
      incident: { id: 'errors:3fa9c0d1e2f3a4' },
    })
    expect(findIncident(open, 'errors:3fa')).toMatchObject({ kind: 'one', incident: { id: 'errors:3fa9c0d1e2f3a4' } })
    expect(findIncident(open, '3fb')).toMatchObject({ kind: 'one', incident: { id: 'errors:3fb0000000aaaa' } })
    expect(findIncident(open, '3fa9')).toMatchObject({
      kind: 'many',
      candidates: [{ id: 'errors:3fa9c0d1e2f3a4' }, { id: 'err:3fa9ffffffffff' }],
    })
    expect(findIncident(open, 'db:')).toEqual({ kind: 'none' })
  })

  it('who acts: --by, else $USER, else cli', () => {
    expect(actorName('asha', { USER: 'root' })).toBe('asha')
    expect(actorName(undefined, { USER: 'meera' })).toBe('meera')
    expect(actorName(undefined, {})).toBe('cli')
  })
})
