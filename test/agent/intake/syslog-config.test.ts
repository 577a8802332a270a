// A syslog source's own keys as validate reads them (rule 5 of agent/config/normalize/intake.ts):
// defaults, protocol and max_line_bytes, and each refusal at its file:line:col.
import { describe, expect, it } from 'vitest'
import { parseAgentConfig } from '../../../agent/config'
import { fakeSecretFile } from '../config/helpers'

function parsed(source: string) {
  const text = `sources:\n${source}channels:\n  sms: { type: sms, numbers: [919800000001] }\n`
  return parseAgentConfig(text, 'agent.yaml', { env: {}, cwd: '/', readSecretFile: fakeSecretFile })
}

function problems(source: string): string[] {
  const result = parsed(source)
  return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`)
}

describe('syslog source keys', () => {
  it('defaults: TCP and UDP, 64 KiB lines', () => {
    const result = parsed('  - { name: net, type: syslog, listen: "127.0.0.1:5514" }\n')
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.config.sources[0]?.intake?.syslog).toEqual({ tcp: true, udp: true, maxLineBytes: 65536 })
    expect(result.config.sources[0]?.intake?.paths).toEqual([])
  })

  it('takes protocol and max_line_bytes', () => {
    const result = parsed(
      '  - { name: net, type: syslog, listen: "127.0.0.1:5514", protocol: udp, max_line_bytes: 2048 }\n',
    )
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.config.sources[0]?.intake?.syslog).toEqual({ tcp: false, udp: true, maxLineBytes: 2048 })
  })

  it('refuses a token (syslog carries none), and with tls any protocol but tcp', () => {
    const found = problems(
      '  - name: net\n    type: syslog\n    listen: "127.0.0.1:5514"\n    token_file: /run/secrets/logx-intake-token\n' +
        '    protocol: both\n    tls: { cert: "c", key: "k" }\n',
    )
    expect(found).toContainEqual(expect.stringMatching(/sources\[0\]\.token: syslog carries no token/))
    expect(found).toContainEqual(
      expect.stringMatching(/sources\[0\]\.protocol: with tls a syslog source listens on tcp/),
    )
  })

  it('refuses protocol and max_line_bytes on another type', () => {
    const found = problems(
      '  - { name: web, type: http, listen: "127.0.0.1:8080", protocol: tcp, max_line_bytes: 100 }\n',
    )
    expect(found).toEqual([
      expect.stringMatching(/sources\[0\]\.protocol: "protocol" is for syslog sources/),
      expect.stringMatching(/sources\[0\]\.max_line_bytes: "max_line_bytes" is for syslog sources/),
    ])
  })

  it('refuses a max_line_bytes under 64 on a syslog source (a file source may go lower)', () => {
    expect(problems('  - { name: net, type: syslog, listen: "127.0.0.1:5514", max_line_bytes: 16 }\n')).toEqual([
      "2:74 sources[0].max_line_bytes: a syslog source's max_line_bytes must be at least 64, got 16",
    ])
    expect(problems('  - { name: app, paths: [app.log], max_line_bytes: 16 }\n')).toEqual([])
  })
})
