// The packaged ecosystem.config.js, as pm2 loads it in an app that installed logx: a copy in
// <app>/node_modules/logx, required from the app's directory. The bin is the package's own; the agent
// runs in the app's directory, on its config/agent.yaml or $LOGX_CONFIG.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { suiteTempDir } from '../../../helpers/temp-dir'

const root = join(__dirname, '..', '..', '..', '..')

interface App {
  script: string
  args: string[]
  cwd: string
}

function loadFrom(app: string, env: Record<string, string> = {}): App {
  const script = 'process.stdout.write(JSON.stringify(require(process.argv[1]).apps[0]))'
  const file = join(app, 'node_modules', 'logx', 'ecosystem.config.js')
  const parentEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'LOGX_CONFIG'))
  const out = execFileSync(process.execPath, ['-e', script, file], { cwd: app, env: { ...parentEnv, ...env } })
  return JSON.parse(out.toString()) as App
}

describe('ecosystem.config.js from node_modules/logx', () => {
  const app = suiteTempDir('ecosystem')
  const pkg = join(app, 'node_modules', 'logx')
  mkdirSync(join(pkg, 'bin'), { recursive: true })
  copyFileSync(join(root, 'ecosystem.config.js'), join(pkg, 'ecosystem.config.js'))
  writeFileSync(join(pkg, 'bin', 'logx-agent.js'), '')

  it("runs the package's bin in the app's directory on the app's config/agent.yaml", () => {
    const loaded = loadFrom(app)
    expect(loaded.script).toBe(join(pkg, 'bin', 'logx-agent.js'))
    expect(loaded.cwd).toBe(app)
    expect(loaded.args).toEqual(['run', '--config', join(app, 'config', 'agent.yaml')])
  })

  it('LOGX_CONFIG picks another config, relative to the app', () => {
    expect(loadFrom(app, { LOGX_CONFIG: 'ops/agent.yaml' }).args[2]).toBe(join(app, 'ops', 'agent.yaml'))
  })

  it('is in the files the package ships', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }
    expect(manifest.files).toContain('ecosystem.config.js')
  })
})
