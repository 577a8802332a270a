// Pass-everything mode: `logx-agent run --tap FILE` appends every line it reads (not only the
// candidates the pre-filter keeps) as NDJSON, bytes kept exactly: invalid UTF-8 as base64.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createWorkspace, messagingYaml, spawnAgent, type Workspace } from './helpers'
import { pollUntil } from '../../helpers/poll-until'

interface TapRecord {
  source: string
  path: string | null
  file: string
  generation: number
  offset: number
  line?: string
  base64?: string
  truncated?: true
}

const readTap = (file: string): TapRecord[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as TapRecord)
    : []

describe('logx-agent run --tap', () => {
  let ws: Workspace
  let agent: ReturnType<typeof spawnAgent> | undefined
  let tap: string

  beforeAll(async () => {
    ws = createWorkspace()
    tap = join(ws.dir, 'tap.ndjson')
    mkdirSync(ws.logs, { recursive: true })
    ws.writeConfig(`${messagingYaml()}state_dir: ${ws.state}
sources:
  - name: app
    paths: [${ws.logs}/*.log]
    start_at: beginning
    max_line_bytes: 1024
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    level: error
    notify: oncall-sms
`)
    agent = spawnAgent(['run', '--config', ws.config, '--tap', tap])
    const running = agent
    await pollUntil('the agent started', () =>
      /Stop with Ctrl-C|Open the inbox/.test(running.output()) ? true : undefined,
    )
  })

  afterAll(async () => {
    if (agent !== undefined && agent.child.exitCode === null) {
      agent.child.kill('SIGKILL')
      await agent.exited
    }
    ws?.remove()
  })

  it('taps every line read, in file order, with its offset; invalid UTF-8 as base64, cut lines marked', async () => {
    const app = join(ws.logs, 'app.log')
    const lines: Buffer[] = [
      Buffer.from(JSON.stringify({ level: 30, msg: 'request served' })),
      Buffer.from(JSON.stringify({ level: 50, msg: 'db down' })),
      Buffer.from('plain text, no level at all: ünïcödé'),
      Buffer.from([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      Buffer.from(''),
    ]
    const long = 'x'.repeat(3000)
    appendFileSync(app, Buffer.concat([...lines.flatMap((l) => [l, Buffer.from('\n')]), Buffer.from(`${long}\n`)]))
    const got = await pollUntil('six lines in the tap', () => {
      const all = readTap(tap)
      return all.length >= 6 ? all : undefined
    })
    expect(got).toHaveLength(6)
    let offset = 0
    for (const [i, expected] of lines.entries()) {
      const record = got[i] as TapRecord
      offset += expected.length + 1
      expect(record).toMatchObject({ source: 'app', path: app, generation: 0, offset })
      const bytes =
        record.line === undefined ? Buffer.from(record.base64 ?? '', 'base64') : Buffer.from(record.line, 'utf8')
      expect(bytes.equals(expected)).toBe(true)
    }
    expect(got[3]?.line).toBeUndefined()
    expect(got[5]).toMatchObject({ line: long.slice(0, 1024), truncated: true, offset: offset + long.length + 1 })
  })

  it('still alerts, and taps lines appended later after the ones before', async () => {
    const app = join(ws.logs, 'app.log')
    appendFileSync(app, `${JSON.stringify({ level: 50, msg: 'second' })}\n`)
    const got = await pollUntil('seven lines in the tap', () => {
      const all = readTap(tap)
      return all.length >= 7 ? all : undefined
    })
    expect(got.at(-1)?.line).toContain('second')
    const running = agent as ReturnType<typeof spawnAgent>
    running.child.kill('SIGINT')
    expect(await running.exited).toBe(0)
    expect(running.output()).toContain('notification sent')
    expect(readTap(tap)).toHaveLength(7)
  })
})
