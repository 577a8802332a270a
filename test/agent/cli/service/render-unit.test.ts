// One test per rule of agent/cli/service/render-unit.ts, and the rendered unit checked by systemd's
// own `systemd-analyze verify` where that binary exists (the test says loudly when it skips).
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { onPath } from '../../../../agent/cli/init/probe-machine'
import {
  protectHome,
  quoteArg,
  renderUnit,
  UNIT_MARKER,
  type UnitInput,
} from '../../../../agent/cli/service/render-unit'
import { tempDir } from '../../../helpers/temp-dir'

const input: UnitInput = {
  name: 'logx-agent',
  user: false,
  nodePath: '/usr/bin/node',
  nodeArgs: ['--max-semi-space-size=1'],
  binPath: '/srv/app/node_modules/logx/bin/logx-agent.js',
  configPath: '/srv/app/config/agent.yaml',
  workingDirectory: '/srv/app',
  stateDir: '/var/lib/logx-agent',
  stateDirectory: '/var/lib/logx-agent',
  logDirs: ['/var/log/api', '/srv/app/logs', '/var/log/api'],
}

/** The values of one key in the rendered unit. */
function values(unit: string, key: string): string[] {
  return unit
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1))
}

describe('renderUnit', () => {
  it('rule 1: Type=simple (no sd_notify), restarted on failure, a stop longer than the drain', () => {
    const unit = renderUnit(input)
    expect(values(unit, 'Type')).toEqual(['simple'])
    expect(values(unit, 'Restart')).toEqual(['on-failure'])
    expect(values(unit, 'TimeoutStopSec')).toEqual(['15s'])
  })

  it('rule 2: ExecStart is absolute node, its flags, absolute bin, run --config; odd characters escaped', () => {
    expect(values(renderUnit(input), 'ExecStart')).toEqual([
      '/usr/bin/node --max-semi-space-size=1 /srv/app/node_modules/logx/bin/logx-agent.js run --config ' +
        '/srv/app/config/agent.yaml',
    ])
    expect(quoteArg('/opt/my app/x')).toBe('"/opt/my app/x"')
    expect(quoteArg('/opt/100%/$HOME')).toBe('/opt/100%%/$$HOME')
    expect(quoteArg('a"b\\c d')).toBe('"a\\"b\\\\c d"')
  })

  it('rule 3: the working directory is where the installer ran', () => {
    expect(values(renderUnit(input), 'WorkingDirectory')).toEqual(['/srv/app'])
  })

  it('rule 4: StateDirectory always; ReadWritePaths only for a state_dir elsewhere', () => {
    const unit = renderUnit(input)
    expect(values(unit, 'StateDirectory')).toEqual(['logx-agent'])
    expect(values(unit, 'ReadWritePaths')).toEqual([])
    const elsewhere = renderUnit({ ...input, stateDir: '/srv/app/.logx-agent' })
    expect(values(elsewhere, 'ReadWritePaths')).toEqual(['/srv/app/.logx-agent'])
  })

  it("rule 5: the logs' directories are read-only, once each, none required to exist", () => {
    expect(values(renderUnit(input), 'ReadOnlyPaths')).toEqual(['-/srv/app/logs -/var/log/api'])
    expect(values(renderUnit({ ...input, logDirs: [] }), 'ReadOnlyPaths')).toEqual([])
  })

  it('rule 6: ProtectHome=yes unless something the agent uses is under a home', () => {
    expect(protectHome(input)).toBe('yes')
    expect(protectHome({ ...input, logDirs: ['/home/asha/.pm2/logs'] })).toBe('read-only')
    expect(protectHome({ ...input, workingDirectory: '/root/app' })).toBe('read-only')
    expect(protectHome({ ...input, stateDir: '/homework' })).toBe('yes')
    expect(values(renderUnit({ ...input, configPath: '/home/asha/agent.yaml' }), 'ProtectHome')).toEqual(['read-only'])
  })

  it('rule 7: the hardening every unit gets, and no MemoryDenyWriteExecute (V8 writes code)', () => {
    const unit = renderUnit(input)
    for (const line of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'PrivateTmp=yes', 'RestrictSUIDSGID=yes'])
      expect(unit).toContain(`\n${line}\n`)
    expect(unit).not.toContain('MemoryDenyWriteExecute')
  })

  it('rule 8: wanted by multi-user.target, or default.target for a --user unit (without network-online)', () => {
    expect(values(renderUnit(input), 'WantedBy')).toEqual(['multi-user.target'])
    const user = renderUnit({ ...input, user: true })
    expect(values(user, 'WantedBy')).toEqual(['default.target'])
    expect(user).not.toContain('network-online')
  })

  it('rule 9: the first line marks the unit as written by service install', () => {
    expect(renderUnit(input).split('\n')[0]).toBe(UNIT_MARKER)
  })

  const verify = onPath('systemd-analyze', process.env.PATH)
  if (!verify) {
    console.warn(
      '\n*** SKIPPED: systemd-analyze is not on the PATH; the rendered unit was NOT checked by systemd ***\n',
    )
  }
  it.skipIf(!verify)('systemd-analyze verify accepts the unit (system and --user)', async () => {
    const dir = tempDir('unit')
    // The user manager that verify starts needs a runtime directory (a container has none).
    const runtime = tempDir('unit-runtime')
    const real = {
      ...input,
      nodePath: process.execPath,
      binPath: join(__dirname, '..', '..', '..', '..', 'bin', 'logx-agent.js'),
    }
    for (const user of [false, true]) {
      const file = join(dir, `logx-agent-${user ? 'user' : 'system'}.service`)
      writeFileSync(file, renderUnit({ ...real, user, name: 'logx-agent' }))
      const args = ['verify', ...(user ? ['--user'] : []), file]
      const { stderr } = await promisify(execFile)('systemd-analyze', args, {
        env: { ...process.env, SYSTEMD_LOG_LEVEL: 'warning', XDG_RUNTIME_DIR: runtime },
      })
      const ours = stderr.split('\n').filter((line) => line.includes(file))
      expect(ours).toEqual([])
    }
  })
})
