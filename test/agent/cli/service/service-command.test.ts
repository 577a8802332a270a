// `logx-agent service install|uninstall` into a temp directory standing in for /etc/systemd/system.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  packageBin,
  serviceInstall,
  serviceUninstall,
  type ServiceArgs,
  type ServiceEnvironment,
} from '../../../../agent/cli/service/service-command'
import { tempDir } from '../../../helpers/temp-dir'
import { capture } from '../capture'

const CONFIG = `
state_dir: \${STATE_DIRECTORY:-.logx-agent}
sources:
  - name: app
    paths: ./logs/*.log
  - name: api
    paths: /var/log/api/*.log
channels:
  oncall:
    type: sms
    numbers: 919800000001
`

function host(config = CONFIG): ServiceEnvironment {
  const root = tempDir('service')
  const cwd = join(root, 'srv', 'app')
  mkdirSync(join(cwd, 'config'), { recursive: true })
  writeFileSync(join(cwd, 'config', 'agent.yaml'), config)
  return {
    unitDir: join(root, 'etc', 'systemd', 'system'),
    stateDirectory: '/var/lib/logx-agent',
    cwd,
    nodePath: '/usr/bin/node',
    binPath: '/srv/app/node_modules/logx/bin/logx-agent.js',
  }
}

const args = (more: Partial<ServiceArgs> = {}): ServiceArgs => ({
  user: false,
  config: 'config/agent.yaml',
  name: 'logx-agent',
  dryRun: false,
  force: false,
  ...more,
})

async function run(action: typeof serviceInstall, a: ServiceArgs, environment: ServiceEnvironment) {
  const { io, out } = capture()
  const code = await action(a, io, environment)
  return { code, ...out() }
}

describe('logx-agent service', () => {
  it('install writes the unit of the config and prints how to enable it; never over a file without --force', async () => {
    const environment = host()
    const done = await run(serviceInstall, args(), environment)
    expect(done.stderr).toBe('')
    const file = join(environment.unitDir, 'logx-agent.service')
    const unit = readFileSync(file, 'utf8')
    expect(unit).toContain(`--config ${join(environment.cwd, 'config', 'agent.yaml')}\n`)
    expect(unit).toContain(`ReadOnlyPaths=-${join(environment.cwd, 'logs')} -/var/log/api\n`)
    expect(unit).toContain('StateDirectory=logx-agent\n')
    expect(unit).not.toContain('ReadWritePaths')
    expect(done.stdout).toContain('systemctl daemon-reload && systemctl enable --now logx-agent')
    writeFileSync(file, 'edited\n')
    const again = await run(serviceInstall, args(), environment)
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('exists; nothing written (--force') })
    expect(readFileSync(file, 'utf8')).toBe('edited\n')
    expect((await run(serviceInstall, args({ force: true }), environment)).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(unit)
  })

  it('--user and --name: the user manager and its commands; a state_dir elsewhere gets ReadWritePaths', async () => {
    const environment = host(CONFIG.replace('${STATE_DIRECTORY:-.logx-agent}', '/srv/state'))
    const done = await run(serviceInstall, args({ user: true, name: 'alerts' }), environment)
    expect(done.stdout).toContain('systemctl --user daemon-reload && systemctl --user enable --now alerts')
    const unit = readFileSync(join(environment.unitDir, 'alerts.service'), 'utf8')
    expect(unit).toContain('ReadWritePaths=/srv/state\n')
    expect(unit).toContain('WantedBy=default.target\n')
  })

  it('--dry-run prints the unit and writes nothing', async () => {
    const environment = host()
    const done = await run(serviceInstall, args({ dryRun: true }), environment)
    expect(done.stdout).toContain('(--dry-run: not written)\n# Written by `logx-agent service install`')
    expect(existsSync(environment.unitDir)).toBe(false)
  })

  it('without a config: exit 2 and how to make one; an invalid one: its problems, exit 1, no unit', async () => {
    const missing = await run(serviceInstall, args({ config: 'nope.yaml' }), host())
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('npx logx-agent init --config') })
    const environment = host('sources: 3\n')
    const invalid = await run(serviceInstall, args(), environment)
    expect(invalid).toMatchObject({ code: 1, stderr: expect.stringContaining('the unit would not start') })
    expect(existsSync(environment.unitDir)).toBe(false)
  })

  it('uninstall removes its own unit once disabled; an enabled one it leaves, saying to disable it', async () => {
    const environment = host()
    await run(serviceInstall, args(), environment)
    const file = join(environment.unitDir, 'logx-agent.service')
    const wants = join(environment.unitDir, 'multi-user.target.wants')
    mkdirSync(wants)
    symlinkSync(file, join(wants, 'logx-agent.service'))
    const enabled = await run(serviceUninstall, args(), environment)
    expect(enabled).toMatchObject({ code: 1, stderr: expect.stringContaining('systemctl disable --now logx-agent') })
    expect(existsSync(file)).toBe(true)
    rmSync(join(wants, 'logx-agent.service'))
    const removed = await run(serviceUninstall, args(), environment)
    expect(removed.code).toBe(0)
    expect(removed.stdout).toContain('systemctl daemon-reload')
    expect(existsSync(file)).toBe(false)
    expect((await run(serviceUninstall, args(), environment)).code).toBe(1)
  })

  it('uninstall keeps a unit it did not write unless --force', async () => {
    const environment = host()
    mkdirSync(environment.unitDir, { recursive: true })
    const file = join(environment.unitDir, 'logx-agent.service')
    writeFileSync(file, '[Unit]\nDescription=someone else\n')
    expect((await run(serviceUninstall, args(), environment)).stderr).toContain('was not written by service install')
    expect(existsSync(file)).toBe(true)
    expect((await run(serviceUninstall, args({ force: true }), environment)).code).toBe(0)
    expect(existsSync(file)).toBe(false)
  })

  it("packageBin finds the package's bin from anywhere inside it", () => {
    expect(packageBin(__dirname)).toBe(join(__dirname, '..', '..', '..', '..', 'bin', 'logx-agent.js'))
  })
})
