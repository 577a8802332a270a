// normalize/intake.ts's rules through the whole loader, each problem with where it is written
// (file:line:col), as `logx-agent validate` prints it.
import { describe, expect, it } from 'vitest'
import { formatProblem, parseAgentConfig } from '../../../agent/config'
import type { IntakeSourceConfig } from '../../../agent/config/types'

const HEAD =
  'messaging:\n  sandbox:\n    listen: 127.0.0.1:0\nchannels:\n  sms: { type: sms, numbers: [919800000001] }\n'

function parse(sources: string) {
  return parseAgentConfig(`${HEAD}sources:\n${sources}`, 'agent.yaml', { env: {}, cwd: '/srv' })
}
const problems = (sources: string): string[] => {
  const result = parse(sources)
  return result.ok ? [] : result.problems.map((p) => formatProblem(p))
}

describe('intake sources in the config', () => {
  it('rule 1: an intake source needs listen; file keys are refused on it, intake keys on a file source', () => {
    expect(problems('  - { name: api, type: http }\n')).toEqual([
      expect.stringMatching(/^agent\.yaml:7:\d+ sources\[0\]\.listen: is required for a http source/),
    ])
    const wrongKeys = problems(
      '  - { name: api, type: http, listen: ":8080", paths: [a.log] }\n  - { name: f, paths: [a.log], token: t }\n',
    )
    expect(wrongKeys).toEqual([
      expect.stringMatching(/^agent\.yaml:7:\d+ sources\[0\]\.paths: "paths" is not for a http source/),
      expect.stringMatching(/^agent\.yaml:8:\d+ sources\[1\]\.token: "token" is for network sources/),
    ])
  })

  it('rule 2: off loopback without a token or client certificates is refused; with a token it loads', () => {
    expect(problems('  - { name: api, type: http, listen: "0.0.0.0:8080" }\n')).toEqual([
      expect.stringMatching(/^agent\.yaml:7:\d+ sources\[0\]\.listen: is not a loopback address/),
    ])
    const ok = parse('  - { name: api, type: http, listen: "0.0.0.0:8080", token: a-long-token }\n')
    expect(ok.ok).toBe(true)
    if (!ok.ok) return
    const source = ok.config.sources[0] as IntakeSourceConfig
    expect(source.intake.token?.reveal()).toBe('a-long-token')
    expect(String(source.intake.token)).toBe('[secret]')
    expect(ok.config.secrets.map((s) => s.reveal())).toContain('a-long-token')
  })

  it('rule 3: paths by type, and path only where it means something', () => {
    const ok = parse(
      '  - { name: api, type: http, listen: ":8080" }\n  - { name: am, type: alertmanager, listen: ":8080", ' +
        'path: /am }\n  - { name: otel, type: otlp, listen: ":8080" }\n',
    )
    expect(ok.ok).toBe(true)
    if (!ok.ok) return
    expect(ok.config.sources.map((s) => s.intake?.paths)).toEqual([['/ingest/api'], ['/am'], ['/v1/logs']])
    expect(ok.config.sources[0]?.intake?.listen).toEqual({ host: '127.0.0.1', port: 8080 })
    expect(problems('  - { name: otel, type: otlp, listen: ":4318", path: /x }\n')).toEqual([
      expect.stringMatching(/sources\[0\]\.path: a otlp source takes no path/),
    ])
  })

  it('rule 4: one address, one path each and one tls; a syslog source has its port alone', () => {
    expect(
      problems(
        '  - { name: a, type: alertmanager, listen: ":9000" }\n  - { name: g, type: grafana, listen: ":9000" }\n',
      ),
    ).toEqual([expect.stringMatching(/^agent\.yaml:8:\d+ sources\[1\]\.listen: 127\.0\.0\.1:9000\/ is source a's/)])
    expect(
      problems('  - { name: a, type: http, listen: ":9000" }\n  - { name: s, type: syslog, listen: ":9000" }\n'),
    ).toEqual([expect.stringMatching(/sources\[1\]\.listen: 127\.0\.0\.1:9000 is source a's: a syslog source/)])
  })
})
