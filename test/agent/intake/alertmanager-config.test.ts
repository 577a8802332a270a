// An alertmanager or grafana source's own keys, as validate reads them: defaults, the severity map
// with level names or numbers, and each key refused (with file:line:col) where it does not belong.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAgentConfig } from '../../../agent/config'
import { fakeSecretFile, repoRoot, testEnv } from '../config/helpers'

function parsed(source: string) {
  const text = `sources:\n${source}channels:\n  sms: { type: sms, numbers: [919800000001] }\n`
  return parseAgentConfig(text, 'agent.yaml', { env: {}, cwd: '/' })
}

function problems(source: string): string[] {
  const result = parsed(source)
  return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`)
}

describe('alertmanager source keys', () => {
  it('defaults: the severity label, no own levels, resolves tell whoever was paged', () => {
    const result = parsed('  - { name: am, type: alertmanager, listen: "127.0.0.1:9095" }\n')
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.config.sources[0]?.intake?.alertmanager).toEqual({
      severityLabel: 'severity',
      severityLevels: {},
      sendResolved: true,
    })
  })

  it('takes severity_levels as level names or numbers, keys in lower case', () => {
    const result = parsed(
      '  - name: graf\n    type: grafana\n    listen: "127.0.0.1:9095"\n    severity_label: priority\n' +
        '    severity_levels: { P1: fatal, p2: 50, Sev3: warning }\n    send_resolved: false\n',
    )
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.config.sources[0]?.intake?.alertmanager).toEqual({
      severityLabel: 'priority',
      severityLevels: { p1: 60, p2: 50, sev3: 40 },
      sendResolved: false,
    })
  })

  it('refuses a level that is not one, and the keys on other sources, where they are written', () => {
    expect(
      problems(
        '  - name: am\n    type: alertmanager\n    listen: "127.0.0.1:9095"\n    severity_levels: { p1: loud }\n',
      ),
    ).toEqual([expect.stringMatching(/^5:\d+ sources\[0\]\.severity_levels\.p1: .*level/)])
    expect(problems('  - { name: h, type: http, listen: "127.0.0.1:9096", send_resolved: true }\n')).toEqual([
      expect.stringMatching(/^2:\d+ sources\[0\]\.send_resolved: "send_resolved" is for alertmanager and grafana/),
    ])
    expect(problems('  - { name: f, paths: [/var/log/a.log], severity_label: level }\n')).toEqual([
      expect.stringMatching(/^2:\d+ sources\[0\]\.severity_label: .*network sources/),
    ])
  })
})

describe('config/examples/alertmanager.yaml', () => {
  it('two sources on one address, Alertmanager and Grafana by path, each with the token from its file', () => {
    const file = join(repoRoot, 'config/examples/alertmanager.yaml')
    const result = parseAgentConfig(readFileSync(file, 'utf8'), file, { env: testEnv, readSecretFile: fakeSecretFile })
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    const [prometheus, grafana] = result.config.sources
    expect(prometheus).toMatchObject({ type: 'alertmanager', intake: { paths: ['/alertmanager'] } })
    expect(prometheus?.intake?.alertmanager?.severityLevels).toEqual({ page: 60, ticket: 40 })
    expect(prometheus?.intake?.token?.reveal()).toBe('intake-tok-246')
    expect(grafana).toMatchObject({
      type: 'grafana',
      intake: { paths: ['/grafana'], listen: prometheus?.intake?.listen },
    })
  })
})
