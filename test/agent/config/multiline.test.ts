// `sources[].multiline` as the agent reads it: a preset name, or an object with defaults filled in.
// (Bad forms: test/fixtures/config/bad/source-multiline.yaml.)
import { describe, expect, it } from 'vitest'
import { formatProblem, parseAgentConfig } from '../../../agent/config'
import type { SourceConfig } from '../../../agent/config/types'
import { fakeSecretFile, testEnv } from './helpers'

function sourceOf(multiline: string): SourceConfig {
  const yaml = `sources:\n  - name: app\n    paths: ./logs/app.log\n    multiline: ${multiline}\nchannels:\n  sms: { type: sms, numbers: [919800000001] }\nrules:\n  - name: r\n`
  const result = parseAgentConfig(yaml, 'agent.yaml', { env: testEnv, cwd: '/srv/app', readSecretFile: fakeSecretFile })
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  return result.config.sources[0] as SourceConfig
}

describe('sources[].multiline', () => {
  it('is off unless given', () => {
    const yaml =
      'sources:\n  - name: app\n    paths: ./a.log\nchannels:\n  sms: { type: sms, numbers: [919800000001] }\nrules:\n  - name: r\n'
    const result = parseAgentConfig(yaml, 'agent.yaml', {
      env: testEnv,
      cwd: '/srv/app',
      readSecretFile: fakeSecretFile,
    })
    expect(result.ok && result.config.sources[0]?.multiline).toBeUndefined()
  })

  it('takes a preset name, with max_lines 500 and a 1s timeout', () => {
    expect(sourceOf('java').multiline).toEqual({
      match: { kind: 'preset', preset: 'java' },
      maxLines: 500,
      timeoutMs: 1000,
    })
  })

  it('takes an object with a preset, a start or a continuation pattern', () => {
    expect(sourceOf('{ preset: go, max_lines: 50, timeout: 2s }').multiline).toEqual({
      match: { kind: 'preset', preset: 'go' },
      maxLines: 50,
      timeoutMs: 2000,
    })
    expect(sourceOf("{ start: '^\\d{4}-' }").multiline).toEqual({
      match: { kind: 'start', pattern: /^\d{4}-/ },
      maxLines: 500,
      timeoutMs: 1000,
    })
    expect(sourceOf("{ continue: '/^\\s/i', timeout: 500ms }").multiline).toEqual({
      match: { kind: 'continue', pattern: /^\s/i },
      maxLines: 500,
      timeoutMs: 500,
    })
  })
})
