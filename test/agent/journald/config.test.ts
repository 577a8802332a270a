// `type: journald` sources in the config: what they normalize to, and that a key of the wrong kind
// of source is a problem naming it (test/fixtures/config/bad/source-journald.yaml has the rest).
import { describe, expect, it } from 'vitest'
import { formatProblem, parseAgentConfig, type AgentConfig } from '../../../agent/config'

const config = (sources: string): string => `messaging:
  sandbox: { listen: 127.0.0.1:0 }
sources:
${sources}
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: r
    level: error
    notify: oncall-sms
`

function load(sources: string): AgentConfig {
  const result = parseAgentConfig(config(sources), 'agent.yaml', { env: {}, cwd: '/srv/app' })
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  return result.config
}

function problems(sources: string): string[] {
  const result = parseAgentConfig(config(sources), 'agent.yaml', { env: {}, cwd: '/srv/app' })
  return result.ok ? [] : result.problems.map(formatProblem)
}

describe('journald sources in the config', () => {
  it('normalizes units, a priority name to its number, and journal file globs made absolute', () => {
    const [source] = load(`  - name: system
    type: journald
    units: nginx.service
    priority: warning
    journal_files: [journal/*.journal, /var/log/journal/remote/*.journal]
    start_at: beginning`).sources
    expect(source).toMatchObject({
      name: 'system',
      type: 'journald',
      paths: [],
      startAt: 'beginning',
      journald: {
        units: ['nginx.service'],
        priority: 4,
        journalFiles: ['/srv/app/journal/*.journal', '/var/log/journal/remote/*.journal'],
      },
    })
  })

  it('reads the whole system journal by default, from its end', () => {
    const [source] = load('  - { name: system, type: journald }').sources
    expect(source).toMatchObject({
      type: 'journald',
      startAt: 'end',
      journald: { units: [], priority: undefined, journalFiles: [] },
    })
  })

  it('takes a priority as a number', () => {
    expect(load('  - { name: system, type: journald, priority: 3 }').sources[0]?.journald?.priority).toBe(3)
  })

  it('keeps file sources as they were: type file, no journald', () => {
    const [source] = load('  - { name: app, paths: /var/log/app/*.log }').sources
    expect(source).toMatchObject({ type: 'file', paths: ['/var/log/app/*.log'], journald: undefined })
  })

  it('still requires paths of a file source, saying so as before', () => {
    expect(problems('  - { name: app, format: json }')).toEqual(['agent.yaml:4:5 sources[0].paths: is required'])
    expect(problems('  - { name: app, type: file }')).toEqual(['agent.yaml:4:5 sources[0].paths: is required'])
  })

  it('names each file key given to a journald source', () => {
    const found = problems('  - { name: system, type: journald, max_line_bytes: 1000, sync_reads: false }')
    expect(found).toHaveLength(2)
    expect(found[0]).toMatch(/sources\[0\]\.max_line_bytes: "max_line_bytes" is for file sources/)
    expect(found[1]).toMatch(/sources\[0\]\.sync_reads: "sync_reads" is for file sources/)
  })

  it('names each journald key given to a file source', () => {
    expect(problems('  - { name: app, paths: /x/*.log, priority: err, journal_files: /j/*.journal }')).toEqual([
      'agent.yaml:4:35 sources[0].priority: "priority" is for journald sources: add type: journald, or remove it',
      'agent.yaml:4:50 sources[0].journal_files: "journal_files" is for journald sources: add type: journald, or remove it',
    ])
  })
})
