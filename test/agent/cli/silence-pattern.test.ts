// `logx-agent silence` refuses a matcher pattern that can backtrack exponentially on a log line
// (agent/config/values/user-pattern.ts), as a usage error naming the option, before anything is sent.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { tempDir } from '../../helpers/temp-dir'
import { cli } from './capture'
import { startFakeConsole, type FakeConsole } from './fake-console'

let fake: FakeConsole
let reach: string[]

beforeEach(async () => {
  fake = await startFakeConsole()
  const tokenFile = join(tempDir('silence-pattern'), 'token')
  writeFileSync(tokenFile, `${fake.token}\n`)
  reach = ['--url', fake.url, '--token-file', tokenFile]
})
afterEach(() => fake.close())

it('refuses --match msg=/^(a+)+$/ with the reason, and sends nothing', async () => {
  const out = await cli(['silence', '--match', 'rule=db', '--match', 'msg=/^(a+)+$/', '--for', '2h', ...reach])
  expect(out.code).toBe(2)
  expect(out.stderr).toContain('logx-agent: --match "msg=/^(a+)+$/": regular expression /^(a+)+$/ can take exponential')
  expect(fake.requests).toEqual([])
})

it('takes a pattern without nested repetition', async () => {
  const out = await cli(['silence', '--match', 'msg=/^a+$/', '--for', '2h', ...reach])
  expect(out.stderr).toBe('')
  expect(out.code).toBe(0)
  expect(fake.requests[0]?.body).toMatchObject({ matchers: { msg: '/^a+$/' } })
})
