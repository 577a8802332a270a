// sources[].follow_symlinks as the tailer takes it: a mode, or directories made absolute; container
// formats allow their runtime's directories unless the source says otherwise.
import { describe, expect, it } from 'vitest'
import { parseAgentConfig } from '../../../../agent/config/load/load-config'

function followOf(sourceYaml: string): unknown {
  const result = parseAgentConfig(
    `sources:
  - name: app
    paths: /var/log/containers/*.log
${sourceYaml}channels: { sms: { type: sms, numbers: [919800000001] } }
`,
    'agent.yaml',
    { cwd: '/srv/agent' },
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config.sources[0]?.followSymlinks
}

describe('follow_symlinks', () => {
  it('is inside by default, and takes inside, outside, never as written', () => {
    expect(followOf('')).toBe('inside')
    for (const mode of ['inside', 'outside', 'never']) expect(followOf(`    follow_symlinks: ${mode}\n`)).toBe(mode)
  })

  it('makes listed directories absolute against the working directory', () => {
    expect(followOf('    follow_symlinks: [/var/log/pods/, shared/logs]\n')).toEqual([
      '/var/log/pods',
      '/srv/agent/shared/logs',
    ])
  })

  it("allows a container runtime's directories for format docker and cri, unless the source says otherwise", () => {
    expect(followOf('    format: docker\n')).toEqual(['/var/log/pods', '/var/lib/docker/containers'])
    expect(followOf('    format: cri\n')).toEqual(['/var/log/pods'])
    expect(followOf('    format: cri\n    follow_symlinks: never\n')).toBe('never')
  })
})
