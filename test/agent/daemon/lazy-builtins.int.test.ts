// Which of Node's heavier built-in modules a running agent has loaded, seen from inside a real agent
// process: one that reads a file, pages through the embedded sandbox, writes its checkpoint and stops
// has no use for node:worker_threads (0.4 MB), the public node:module (0.2 MB) or node:timers/promises,
// and serves no console, so it makes no console token. node:crypto (its checkpoint's file head, the
// sandbox's key check) and node:util's parseArgs (`run`'s command line) are loaded now: standard parts
// over hand-written ones, within the 64 MB peak RSS goal. A module loaded anywhere on that path shows
// here (the harness's peak RSS; BENCHMARKS.md).
import { afterAll, expect, it } from 'vitest'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createWorkspace, recordsWhen, smsTexts, startAgentProcess, type RunningAgent, type Workspace } from './helpers'

let ws: Workspace | undefined
let agent: RunningAgent | undefined
afterAll(async () => {
  await agent?.kill('SIGKILL')
  ws?.remove()
})

it('an agent that reads, pages, checkpoints and stops loads neither node:worker_threads nor node:module', async () => {
  ws = createWorkspace()
  mkdirSync(ws.logs, { recursive: true })
  const loadedFile = join(ws.dir, 'loaded.json')
  const probe = join(ws.dir, 'probe.js')
  writeFileSync(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loadedFile)}, JSON.stringify(process.moduleLoadList)))\n`,
  )
  writeFileSync(
    join(ws.logs, 'app.log'),
    `${JSON.stringify({ level: 30, msg: `app started ${'.'.repeat(300)}` })}\n${JSON.stringify({ level: 50, msg: 'disk full on db-1' })}\n`,
  )
  ws.writeConfig(`messaging:
  api_key: probe-key
  sandbox: { listen: 127.0.0.1:0 }
state_dir: ${ws.state}
sources: [{ name: app, paths: [${ws.logs}/*.log], start_at: beginning }]
channels: { oncall-sms: { type: sms, numbers: [919800000001] } }
rules: [{ name: errors, level: error, notify: [oncall-sms] }]
`)
  agent = await startAgentProcess(ws.config, { NODE_OPTIONS: `--require ${probe}` })
  await recordsWhen(agent.baseUrl, 'the SMS', (all) => smsTexts(all).some((text) => text.includes('disk full on db-1')))
  expect(await agent.kill('SIGTERM')).toBe(0)
  agent = undefined

  const loaded = JSON.parse(readFileSync(loadedFile, 'utf8')) as string[]
  // The probe sees the run: the HTTP client and server, and the file reading, are there.
  expect(loaded).toEqual(expect.arrayContaining(['NativeModule http', 'NativeModule fs/promises']))
  for (const unused of ['worker_threads', 'module', 'timers/promises']) {
    expect(loaded, unused).not.toContain(`NativeModule ${unused}`)
  }
  expect(readFileSync(join(ws.state, 'checkpoints', 'app.json'), 'utf8')).toContain('"head"')
  expect(existsSync(join(ws.state, 'console.token'))).toBe(false)
})
