// A silence matcher's value refuses control characters wherever a silence is made: the config's
// silences (at file:line:col), the run-time silences' check behind the console API, and the
// check the CLI's --match uses. One test per rule of agent/config/values/silence-matcher.ts.
import { describe, expect, it } from 'vitest'
import { formatProblem, parseAgentConfig } from '../../../../agent/config'
import { checkSilenceMatchValue, controlCharacterProblem } from '../../../../agent/config/values/silence-matcher'
import { silenceProblem } from '../../../../agent/incidents/runtime-silences'

describe('silence matcher values', () => {
  it('rule 1: a C0, DEL or C1 control is refused, named as an escape with its place', () => {
    expect(controlCharacterProblem('a\u001b[2J')).toMatch(/^must not hold control characters \(\\x1b at character 2\)/)
    expect(controlCharacterProblem('x\ny')).toContain('(\\n at character 2)')
    expect(controlCharacterProblem('\tx')).toContain('(\\t at character 1)')
    expect(controlCharacterProblem('ab\u007f')).toContain('(\\x7f at character 3)')
    expect(controlCharacterProblem('\u009b')).toContain('(\\x9b at character 1)')
    expect(controlCharacterProblem('db down: é 日本')).toBeUndefined()
  })

  it('rule 2: any other value is checked as a field matcher (a pattern must compile)', () => {
    expect(checkSilenceMatchValue('errors')).toBeUndefined()
    expect(checkSilenceMatchValue('/time(out/')).toMatch(/./)
    // An escape written as text in a pattern is how a control character is matched.
    expect(checkSilenceMatchValue('/a\\x1b/')).toBeUndefined()
  })

  it('the run-time silences (console API, CLI) name the matcher', () => {
    const request = { matchers: { msg: 'a\u001b' }, endsAt: Date.now() + 60_000, comment: undefined, by: 'asha' }
    expect(silenceProblem(request, Date.now())).toMatch(/^matchers\.msg: must not hold control characters \(\\x1b/)
  })

  it("the config's silences: refused at the value's line and column", () => {
    const text = [
      'sources:',
      '  - name: app',
      '    paths: ./logs/*.log',
      'channels:',
      '  sms: { type: sms, numbers: [919800000001] }',
      'silences:',
      '  - matchers: { msg: "deploy\\e]0;x\\a" }',
      '    ends_at: 2031-01-01T00:00:00Z',
      '',
    ].join('\n')
    const result = parseAgentConfig(text, 'agent.yaml', { env: {}, cwd: '/tmp' })
    const problems = result.ok ? [] : result.problems.map(formatProblem)
    expect(problems).toEqual([
      'agent.yaml:7:22 silences[0].matchers.msg: must not hold control characters (\\x1b at character 7): a silence ' +
        'matches printable text; to match one, write a /pattern/ with an escape like \\x1b',
    ])
  })
})
