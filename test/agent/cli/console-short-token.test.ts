// A console.token too short to be a secret (issue #32 item 11) is one config problem, said with
// file:line:col by `validate` and by `run` alike (which used to accept it at validate and then die
// of it at start with a stack trace).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { cli } from './capture'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('short-token')

it('validate and run both name the line of console.token; run starts nothing and prints no stack', async () => {
  const config = join(dir, 'agent.yaml')
  writeFileSync(
    config,
    `state_dir: ${join(dir, 'state')}
sources: [{ name: app, paths: [${dir}/*.log] }]
channels: { sms: { type: sms, numbers: [919800000001] } }
rules: [{ name: errors, notify: sms }]
metrics: { listen: 127.0.0.1:0 }
console:
  token: short
`,
  )
  const line = `${config}:7:10 console.token: must be at least 8 characters (a short token is easily guessed)`
  const validated = await cli(['validate', config])
  expect(validated.code).toBe(1)
  expect(`${validated.stdout}${validated.stderr}`).toContain(line)
  const ran = await cli(['run', '--config', config])
  expect(ran.code).toBe(validated.code)
  expect(ran.stderr).toContain(`${line}\n`)
  expect(ran.stderr).not.toMatch(/^\s+at /m)
  expect(`${validated.stdout}${validated.stderr}${ran.stdout}${ran.stderr}`).not.toContain('short\n')
})
