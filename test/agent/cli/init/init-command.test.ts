// `logx-agent init` on a machine made of temp directories: HOME with pm2's logs, a working directory
// with ./logs, a Docker containers directory, a PATH with journalctl. What it writes is then checked by
// the validator itself.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { initCommand, type InitArgs, type InitEnvironment } from '../../../../agent/cli/init/init-command'
import { validateCommand } from '../../../../agent/cli/validate-command'
import { tempDir } from '../../../helpers/temp-dir'
import { capture } from '../capture'

interface FakeMachine {
  environment: InitEnvironment
  config: string
}

function fakeMachine(options: { journalctl?: boolean; ask?: (q: string) => string } = {}): FakeMachine {
  const root = tempDir('init')
  const home = join(root, 'home')
  const cwd = join(root, 'app')
  mkdirSync(join(home, '.pm2', 'logs'), { recursive: true })
  writeFileSync(join(home, '.pm2', 'logs', 'api-out.log'), '')
  writeFileSync(join(home, '.pm2', 'logs', 'api-error.log'), '')
  mkdirSync(join(cwd, 'logs'), { recursive: true })
  mkdirSync(join(root, 'docker', 'containers'), { recursive: true })
  const bin = join(root, 'bin')
  mkdirSync(bin)
  if (options.journalctl === true) {
    writeFileSync(join(bin, 'journalctl'), '#!/bin/sh\n')
    chmodSync(join(bin, 'journalctl'), 0o755)
  }
  const roots = {
    home,
    cwd,
    dockerContainers: join(root, 'docker', 'containers'),
    kubeContainers: join(root, 'var-log', 'containers'),
    kubePods: join(root, 'var-log', 'pods'),
  }
  const ask = options.ask
  const environment: InitEnvironment = {
    env: { HOME: home, PATH: bin },
    roots,
    ask: ask === undefined ? undefined : (q) => Promise.resolve(ask(q)),
  }
  return { environment, config: join(cwd, 'config', 'agent.yaml') }
}

const yes = (config: string, more: Partial<InitArgs> = {}): InitArgs => ({ config, yes: true, force: false, ...more })

async function init(machine: FakeMachine, args: InitArgs) {
  const { io, out } = capture()
  const code = await initCommand(args, io, machine.environment)
  return { code, ...out() }
}

async function validate(machine: FakeMachine, env: Record<string, string> = {}) {
  const { io, out } = capture()
  const code = await validateCommand({ config: machine.config }, io, { cwd: machine.environment.roots.cwd, env })
  return { code, ...out() }
}

describe('logx-agent init', () => {
  it('--yes writes a commented config of what the machine has, which validate passes, and the next commands', async () => {
    const machine = fakeMachine({ journalctl: true })
    const done = await init(machine, yes(machine.config))
    expect(done.stderr).toBe('')
    expect(done.code).toBe(0)
    const text = readFileSync(machine.config, 'utf8')
    expect(text).toMatch(/^# logx-agent config, written by `logx-agent init`/)
    expect(text).toContain('- name: pm2-api')
    expect(text).toContain('- name: docker')
    expect(text).toContain('type: journald')
    expect(text).toContain('# a placeholder')
    expect((await validate(machine)).code).toBe(0)
    expect(done.stdout).toContain(`npx logx-agent validate ${machine.config}`)
    expect(done.stdout).toContain(`npx logx-agent run --config ${machine.config}`)
    expect(done.stdout).toContain(`npx logx-agent test-page oncall --config ${machine.config}`)
  })

  it('writes nothing over an existing file without --force; --force replaces it', async () => {
    const machine = fakeMachine()
    mkdirSync(join(machine.config, '..'), { recursive: true })
    writeFileSync(machine.config, 'mine\n')
    const refused = await init(machine, yes(machine.config))
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/exists; init writes nothing over it \(--force replaces it\)/)
    expect(readFileSync(machine.config, 'utf8')).toBe('mine\n')
    const forced = await init(machine, yes(machine.config, { force: true, person: 'asha', phone: '+919800000007' }))
    expect(forced.code).toBe(0)
    expect(readFileSync(machine.config, 'utf8')).toContain('phone: "+919800000007"')
  })

  it('--api real with --api-key-env names the variable, never its value; validate passes once it is set', async () => {
    const machine = fakeMachine()
    machine.environment = { ...machine.environment, env: { ...machine.environment.env, LOGX_API_KEY: 's3cret-key' } }
    const args = yes(machine.config, {
      api: 'real',
      baseUrl: 'https://api.example.com',
      apiKeyEnv: 'LOGX_API_KEY',
      phone: '919800000001',
      email: 'asha@example.com',
      missedCallNumber: '+918000000000',
    })
    const made = await init(machine, args)
    expect(made.stderr).toBe('')
    expect(made.code).toBe(0)
    const text = readFileSync(machine.config, 'utf8')
    expect(text).toContain('api_key: ${LOGX_API_KEY}')
    expect(text).not.toContain('s3cret-key')
    expect(text).toContain('type: mail')
    expect((await validate(machine, { LOGX_API_KEY: 's3cret-key' })).code).toBe(0)
    const unset = await validate(machine)
    expect(unset.stderr).toContain('${LOGX_API_KEY} is not set')
  })

  it('--api-key-file names the file; init says to fill it when it is not there yet', async () => {
    const machine = fakeMachine()
    const keyFile = join(machine.environment.roots.cwd, 'api.key')
    const args = yes(machine.config, { api: 'real', baseUrl: 'https://api.example.com', apiKeyFile: keyFile })
    const done = await init(machine, { ...args, phone: '919800000001' })
    expect(done.code).toBe(0)
    expect(done.stdout).toContain(`put the API key in ${keyFile}`)
    expect(readFileSync(machine.config, 'utf8')).toContain(`api_key_file: ${keyFile}`)
    writeFileSync(keyFile, 'k\n')
    expect((await validate(machine)).code).toBe(0)
  })

  it('a flag it cannot use is exit 2 naming the flag, and no file', async () => {
    const machine = fakeMachine()
    const badPhone = await init(machine, yes(machine.config, { phone: 'call me' }))
    expect(badPhone).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--phone "call me": expected a phone number'),
    })
    const noUrl = await init(machine, yes(machine.config, { api: 'real', phone: '919800000001' }))
    expect(noUrl).toMatchObject({ code: 2, stderr: expect.stringContaining('--api real needs --base-url') })
    const noPhone = await init(machine, yes(machine.config, { api: 'real', baseUrl: 'https://api.example.com' }))
    expect(noPhone).toMatchObject({ code: 2, stderr: expect.stringContaining("needs oncall's number: --phone") })
    expect(existsSync(machine.config)).toBe(false)
  })

  it('without --yes and without a terminal there is nobody to ask: exit 2', async () => {
    const machine = fakeMachine()
    const done = await init(machine, { config: machine.config, yes: false, force: false })
    expect(done).toMatchObject({ code: 2, stderr: expect.stringContaining('pass --yes') })
  })

  it('on a terminal it asks each question, again after an answer it cannot use; --skip leaves a source out', async () => {
    const asked: string[] = []
    const answers: [RegExp, string][] = [
      [/^Read pm2 app api/, 'n'],
      [/^Read \.\/logs/, ''],
      [/^Read Docker/, 'y'],
      [/^Messaging/, ''],
      [/^Who gets paged/, 'ravi'],
      [/^ {2}"12": expected a phone number\nravi's phone/, '+919800000009'],
      [/^ravi's phone/, '12'],
      [/^ravi's e-mail/, ''],
    ]
    const machine = fakeMachine({
      journalctl: true,
      ask: (q) => {
        asked.push(q)
        const match = answers.find(([pattern]) => pattern.test(q))
        if (match === undefined) throw new Error(`unexpected question: ${q}`)
        return match[1]
      },
    })
    const done = await init(machine, { config: machine.config, yes: false, force: false, skip: ['journald'] })
    expect(done.stderr).toBe('')
    const text = readFileSync(machine.config, 'utf8')
    expect(text).not.toContain('pm2-api')
    expect(text).not.toContain('journald')
    expect(text).toContain('- name: docker')
    expect(text).toContain('  ravi:\n    phone: "+919800000009"')
    expect(asked.filter((q) => q.includes("ravi's phone"))).toHaveLength(2)
    expect((await validate(machine)).code).toBe(0)
  })
})
