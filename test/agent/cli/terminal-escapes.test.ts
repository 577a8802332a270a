// Titles and fields that came from log lines reach the terminal escaped in every text printer of
// the CLI (incidents, ack/resolve and their ambiguity list, silence and silence list, oncall,
// test-rule), and raw in their JSON output. Against a fake console API on 127.0.0.1 and real files.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ackCommand } from '../../../agent/cli/ack-command'
import { incidentsCommand } from '../../../agent/cli/incidents-command'
import { describeSchedule } from '../../../agent/cli/oncall-command'
import { silenceCommand, silenceListCommand } from '../../../agent/cli/silence-command'
import { testRuleCommand } from '../../../agent/cli/test-rule/test-rule-command'
import { incident, startFakeConsole, type FakeConsole } from './fake-console'
import { suiteTempDir } from '../../helpers/temp-dir'

/** An OSC window title, a screen clear, a carriage return, a line feed and a right-to-left override. */
const HOSTILE = 'boom \u001b]0;pwned\u0007 \u001b[2J a\rb x\ny \u202eevil'
const SHOWN = ['\\x1b]0;pwned\\x07', '\\x1b[2J', 'a\\rb', 'x\\ny', '\\u202eevil']
/** Anything a terminal acts on, a newline excepted (the printers' own line breaks). */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

function capture(): { io: Parameters<typeof incidentsCommand>[1]; stdout: () => string; stderr: () => string } {
  let out = ''
  let err = ''
  const io = {
    // Wide, so no column is cut: every escape is seen whole.
    stdout: { write: (t: string) => (out += t), columns: 1000 },
    stderr: { write: (t: string) => (err += t) },
    signal: new AbortController().signal,
  }
  return { io, stdout: () => out, stderr: () => err }
}

function expectEscaped(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL)
  for (const shown of SHOWN) expect(text).toContain(shown)
}

const dir = suiteTempDir('terminal')
let fake: FakeConsole
let tokenFile: string
beforeAll(() => {
  tokenFile = join(dir, 'token')
})
beforeEach(async () => {
  fake = await startFakeConsole()
  writeFileSync(tokenFile, `${fake.token}\n`)
})
afterEach(() => fake.close())

const reach = (json: boolean) => ({ config: 'unused.yaml', url: fake.url, tokenFile, json })

describe('console commands', () => {
  beforeEach(() => {
    fake.incidents = [
      incident('errors:3fa9c0d1e2f3a4', { title: HOSTILE, ack: { by: HOSTILE, via: 'cli', at: Date.now() } }),
      incident('errors:3fa9c0ffffffff', { title: `second ${HOSTILE}` }),
    ]
    fake.silences = [
      {
        id: 's-1',
        matchers: { msg: HOSTILE },
        startsAt: Date.now(),
        endsAt: Date.now() + 3_600_000,
        comment: HOSTILE,
        createdBy: HOSTILE,
        origin: 'runtime',
      },
    ]
  })

  it('incidents: escaped in the table, raw in --json', async () => {
    const text = capture()
    expect(await incidentsCommand({ ...reach(false), all: false }, text.io)).toBe(0)
    expectEscaped(text.stdout())
    const json = capture()
    expect(await incidentsCommand({ ...reach(true), all: false }, json.io)).toBe(0)
    expect((JSON.parse(json.stdout()) as { title: string }[])[0]?.title).toBe(HOSTILE)
  })

  it('ack: the ambiguity list and the result escaped, raw in --json', async () => {
    const action = { action: 'ack' as const, by: 'asha' }
    const ambiguous = capture()
    expect(await ackCommand({ ...reach(false), ...action, incident: '3fa9c0' }, ambiguous.io)).toBe(1)
    expect(ambiguous.stderr()).toContain('names 2 open incidents')
    expectEscaped(ambiguous.stderr())
    const text = capture()
    expect(await ackCommand({ ...reach(false), action: 'resolve', by: 'asha', incident: '3fa9c0d1' }, text.io)).toBe(0)
    expectEscaped(text.stdout())
    const json = capture()
    expect(await ackCommand({ ...reach(true), ...action, incident: '3fa9c0ff' }, json.io)).toBe(0)
    expect((JSON.parse(json.stdout()) as { title: string }).title).toBe(`second ${HOSTILE}`)
  })

  it('silence list: matchers, comment and author escaped, raw in --json', async () => {
    const text = capture()
    expect(await silenceListCommand(reach(false), text.io)).toBe(0)
    expectEscaped(text.stdout())
    const json = capture()
    expect(await silenceListCommand(reach(true), json.io)).toBe(0)
    expect((JSON.parse(json.stdout()) as { comment: string }[])[0]?.comment).toBe(HOSTILE)
  })

  it("silence --match msg=$'a\\x1b': refused before anything is sent, naming the matcher", async () => {
    const out = capture()
    const args = { ...reach(false), match: ['msg=a\u001b'], for: '2h', comment: undefined, by: 'asha' }
    expect(await silenceCommand(args, out.io)).toBe(2)
    expect(out.stderr()).toContain('--match msg: must not hold control characters (\\x1b at character 2)')
    expect(out.stderr()).not.toMatch(RAW_CONTROL)
    expect(fake.requests.filter((r) => r.method === 'POST')).toEqual([])
  })

  it('silence: what the agent answers is printed escaped', async () => {
    const out = capture()
    const args = { ...reach(false), match: ['rule=errors'], for: '2h', comment: undefined, by: 'asha' }
    fake.silences = []
    expect(await silenceCommand(args, out.io)).toBe(0)
    // The fake keeps what it was sent; a hostile matcher as another client could have made it.
    const made = fake.silences[0]
    if (made === undefined) throw new Error('no silence made')
    made.matchers = { msg: HOSTILE }
    const list = capture()
    expect(await silenceListCommand(reach(false), list.io)).toBe(0)
    expectEscaped(list.stdout())
  })
})

describe('oncall', () => {
  it('layer names and people escaped', () => {
    const at = Date.UTC(2026, 2, 2, 12)
    const text = describeSchedule(
      {
        name: `ops ${HOSTILE}`,
        timeZone: 'UTC',
        at,
        layers: [
          {
            name: HOSTILE,
            timeZone: 'UTC',
            now: { user: HOSTILE, until: at + 3_600_000, override: false },
            next: [{ at: at + 3_600_000, user: HOSTILE, override: true }],
          },
        ],
      },
      'now',
    )
    expectEscaped(text)
  })
})

describe('test-rule', () => {
  it('a matched line, its incident and its messages escaped; raw in --json', async () => {
    const config = join(dir, 'agent.yaml')
    const log = join(dir, 'app.log')
    writeFileSync(
      config,
      [
        'messaging:',
        '  base_url: http://127.0.0.1:9/',
        '  api_key: never-used-key',
        `state_dir: ${join(dir, 'state')}`,
        'sources:',
        '  - name: app',
        `    paths: [${dir}/*.log]`,
        'channels:',
        '  sms: { type: sms, numbers: [919800000001] }',
        'rules:',
        '  - name: errors',
        '    group_by: [seq]',
        '',
      ].join('\n'),
    )
    writeFileSync(log, `${JSON.stringify({ level: 50, seq: 1, msg: HOSTILE })}\n`)
    const text = capture()
    expect(await testRuleCommand({ config, files: [log], rule: undefined, json: false }, text.io)).toBe(0)
    expectEscaped(text.stdout())
    const json = capture()
    expect(await testRuleCommand({ config, files: [log], rule: undefined, json: true }, json.io)).toBe(0)
    const report = JSON.parse(json.stdout()) as { matches: { msg: string }[] }
    expect(report.matches[0]?.msg).toBe(HOSTILE)
  })
})
