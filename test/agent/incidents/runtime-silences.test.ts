// Silences made while the agent runs (agent/incidents/runtime-silences.ts), in a real
// `silences.json` in a temp dir: what `logx-agent silence` and the console add, list and expire.
import { describe, expect, it } from 'vitest'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRuntimeSilences, silenceProblem, type SilenceRequest } from '../../../agent/incidents/runtime-silences'
import { tempDir } from '../../helpers/temp-dir'

const fileIn = (): string => join(tempDir('silences'), 'state', 'silences.json')

const request = (
  matchers: Record<string, string>,
  endsAt = 10_000,
  extra: Partial<SilenceRequest> = {},
): SilenceRequest => ({ matchers, endsAt, comment: undefined, by: undefined, ...extra })

const stored = (file: string): Array<{ id: string }> =>
  (JSON.parse(readFileSync(file, 'utf8')) as { silences: Array<{ id: string }> }).silences

describe('adding, listing, removing', () => {
  it('keeps what was asked for, from now until endsAt, with who and why', () => {
    const silences = createRuntimeSilences(undefined)
    const added = silences.add(
      request({ rule: 'errors', 'err.type': 'TimeoutError' }, 5000, { comment: 'deploy', by: 'asha' }),
      1000,
    )
    if (!added.ok) throw new Error(added.error)
    expect(added.silence).toEqual({
      id: expect.stringMatching(/^rt-[0-9a-f]{8}$/) as string,
      matchers: { rule: 'errors', 'err.type': 'TimeoutError' },
      startsAt: 1000,
      endsAt: 5000,
      comment: 'deploy',
      createdBy: 'asha',
    })
    expect(silences.list(2000)).toEqual([added.silence])
  })

  it('gives each silence its own id, and removes one by it', () => {
    const silences = createRuntimeSilences(undefined)
    const a = silences.add(request({ rule: 'a' }), 0)
    const b = silences.add(request({ rule: 'b' }), 0)
    if (!a.ok || !b.ok) throw new Error('refused')
    expect(a.silence.id).not.toBe(b.silence.id)
    expect(silences.remove(a.silence.id)).toEqual(a.silence)
    expect(silences.remove(a.silence.id)).toBeUndefined()
    expect(silences.remove('rt-nothing')).toBeUndefined()
    expect(silences.list(0).map((s) => s.matchers)).toEqual([{ rule: 'b' }])
  })

  it('does not keep a copy of the caller matchers object it can change later', () => {
    const silences = createRuntimeSilences(undefined)
    const matchers: Record<string, string> = { rule: 'errors' }
    silences.add(request(matchers), 0)
    matchers.msg = 'later'
    expect(silences.list(0)[0]?.matchers).toEqual({ rule: 'errors' })
  })

  it('refuses a bad request and keeps nothing', () => {
    const silences = createRuntimeSilences(undefined)
    expect(silences.add(request({}), 0)).toEqual({
      ok: false,
      error: expect.stringMatching(/^matchers: at least one matcher/) as string,
    })
    expect(silences.list(0)).toEqual([])
  })
})

describe('expiry', () => {
  it('a silence is gone from its endsAt on, and the file is saved without it', () => {
    const file = fileIn()
    const silences = createRuntimeSilences(file)
    silences.add(request({ rule: 'short' }, 5000), 0)
    silences.add(request({ rule: 'long' }, 50_000), 0)
    expect(silences.list(4999)).toHaveLength(2)
    expect(silences.list(5000).map((s) => s.matchers.rule)).toEqual(['long'])
    expect(stored(file)).toHaveLength(1)
    expect(silences.configs(50_000)).toEqual([])
    expect(stored(file)).toEqual([])
  })
})

describe('silences.json', () => {
  it('a new start on the same file has the same silences; a removal is saved', () => {
    const file = fileIn()
    const first = createRuntimeSilences(file)
    const a = first.add(request({ rule: 'a' }, 9000, { comment: 'maintenance', by: 'ravi' }), 1000)
    const b = first.add(request({ msg: '/disk/i' }, 9000), 1000)
    if (!a.ok || !b.ok) throw new Error('refused')

    const second = createRuntimeSilences(file)
    expect(second.list(2000)).toEqual([a.silence, b.silence])
    second.remove(a.silence.id)
    expect(createRuntimeSilences(file).list(2000)).toEqual([b.silence])
  })

  it('is written whole (no temp file left behind)', () => {
    const file = fileIn()
    createRuntimeSilences(file).add(request({ rule: 'a' }), 0)
    expect(existsSync(`${file}.tmp`)).toBe(false)
    expect(stored(file)).toHaveLength(1)
  })

  it('an unreadable file (not JSON, no list) starts with no silences', () => {
    const file = fileIn()
    createRuntimeSilences(file)
    writeFileSync(file, '{"silences":')
    expect(createRuntimeSilences(file).list(0)).toEqual([])
    writeFileSync(file, '{"other":1}')
    expect(createRuntimeSilences(file).list(0)).toEqual([])
  })

  it('a silence written with a control character in a matcher (by hand, or by an older agent) is not loaded', () => {
    const file = fileIn()
    const kept = createRuntimeSilences(file).add(request({ rule: 'a' }, 9000), 1000)
    if (!kept.ok) throw new Error('refused')
    const forged = { ...kept.silence, id: 'forged', matchers: { msg: 'db\u001b]0;pwned\u0007' } }
    writeFileSync(file, JSON.stringify({ silences: [kept.silence, forged] }))
    expect(createRuntimeSilences(file).list(2000)).toEqual([kept.silence])
  })
})

describe('as the engine takes them', () => {
  it('each matcher a FieldMatch: "/pattern/flags" a regular expression, anything else equals', () => {
    const silences = createRuntimeSilences(undefined)
    const added = silences.add(
      request({ rule: 'errors', msg: '/^disk (full|gone)$/i' }, 9000, { comment: 'swap' }),
      1000,
    )
    if (!added.ok) throw new Error(added.error)
    const [config] = silences.configs(2000)
    expect(config).toMatchObject({ id: added.silence.id, startsAt: 1000, endsAt: 9000, comment: 'swap' })
    expect(config?.matchers).toHaveLength(2)
    expect(config?.matchers[0]).toEqual({ kind: 'equals', path: 'rule', value: 'errors' })
    const regex = config?.matchers[1]
    expect(regex?.kind).toBe('regex')
    if (regex?.kind !== 'regex') return
    expect(regex.path).toBe('msg')
    expect(regex.regex.test('DISK FULL')).toBe(true)
    expect(regex.regex.test('disk fullish')).toBe(false)
  })
})

describe('silenceProblem', () => {
  it('names the field at fault', () => {
    expect(silenceProblem(request({}), 0)).toBe(
      'matchers: at least one matcher is needed (rule=NAME, or a field of the line)',
    )
    expect(silenceProblem(request({ 'a..b': 'x' }), 0)).toBe('matchers.a..b: expected a dot path like err.type')
    expect(silenceProblem(request({ '': 'x' }), 0)).toBe('matchers.: expected a dot path like err.type')
    expect(silenceProblem(request({ msg: '/(unclosed/' }), 0)).toMatch(/^matchers\.msg: .+/)
    expect(silenceProblem({ ...request({ msg: 'x' }), matchers: { msg: 42 as unknown as string } }, 0)).toBe(
      'matchers.msg: expected a string',
    )
    expect(silenceProblem(request({ msg: 'x' }, 1000), 1000)).toBe('endsAt: must be in the future')
    expect(silenceProblem(request({ msg: 'x' }, Number.NaN), 0)).toBe('endsAt: must be in the future')
    expect(silenceProblem(request({ msg: 'x' }, Number.POSITIVE_INFINITY), 0)).toBe('endsAt: must be in the future')
  })

  it('says nothing of a good request', () => {
    expect(
      silenceProblem(request({ rule: 'errors', 'err.type': 'TypeError', msg: '/timeout/' }, 1001), 1000),
    ).toBeUndefined()
  })
})
