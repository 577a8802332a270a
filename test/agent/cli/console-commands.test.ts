// The commands that talk to the running agent (incidents, ack/unack/resolve, silence), run as a
// user runs them (runCli with a command line) or through their exported functions with an
// environment, against a fake console API on 127.0.0.1 that records what it was sent.
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ackCommand } from '../../../agent/cli/ack-command'
import { incidentsCommand } from '../../../agent/cli/incidents-command'
import { capture, cli } from './capture'
import { incident, startFakeConsole, type FakeConsole } from './fake-console'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('console-cli')
let fake: FakeConsole
let tokenFile: string
/** --url and --token-file of the fake: how a user reaches an agent without its config. */
let reach: string[]

beforeAll(() => {
  tokenFile = join(dir, 'token')
})

beforeEach(async () => {
  fake = await startFakeConsole()
  writeFileSync(tokenFile, `${fake.token}\n`)
  reach = ['--url', fake.url, '--token-file', tokenFile]
})
afterEach(() => fake.close())

/** An agent config in its own directory; `console` is the YAML of its console section. */
function agentConfig(name: string, consoleYaml = ''): { config: string; stateDir: string } {
  const home = join(dir, name)
  const stateDir = join(home, 'state')
  mkdirSync(stateDir, { recursive: true })
  const config = join(home, 'agent.yaml')
  writeFileSync(
    config,
    `messaging:
  base_url: http://127.0.0.1:9/
  api_key: never-used-key
state_dir: ${stateDir}
sources:
  - name: app
    paths: [${home}/*.log]
channels:
  oncall-sms: { type: sms, numbers: [919800000001] }
rules:
  - name: errors
    notify: oncall-sms
metrics:
  listen: 127.0.0.1:0
${consoleYaml}`,
  )
  return { config, stateDir }
}

describe('logx-agent incidents', () => {
  it('prints the open incidents as a table; pending ones only with --all', async () => {
    fake.incidents = [
      incident('errors:3fa9c0d1e2f3a4', {
        title: 'query failed: TypeError: connection refused',
        count: 12,
        paged: ['asha', 'ravi'],
        lastSeen: Date.now() - 180_000,
      }),
      incident('db:77ab01cd23ef45', {
        state: 'acknowledged',
        count: 3,
        paged: ['asha'],
        ack: { by: 'asha', via: 'missed_call', at: Date.now() },
        lastSeen: Date.now() - 7_200_000,
      }),
      incident('errors:0000aaaa111122', { state: 'pending', title: 'still waiting' }),
    ]
    const out = await cli(['incidents', ...reach])
    expect(out.code).toBe(0)
    expect(out.stderr).toBe('')
    const lines = out.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATE\s+COUNT\s+RULE\s+TITLE\s+PAGED\s+ACKED BY\s+LAST SEEN$/)
    // 120 columns when stdout is not a terminal: the title gets what the other columns leave.
    expect(lines[1]).toMatch(
      /^3fa9c0d1\s+firing\s+12\s+errors\s+query failed: TypeError: connection re…\s+asha,ravi\s+-\s+3m(?:\d+s)? ago$/,
    )
    expect(lines[2]).toMatch(/^77ab01cd\s+acknowledged\s+3\s+db\s+query failed\s+asha\s+asha \(missed call\)\s+2h ago$/)
    expect(lines[3]).toBe('(1 pending, not paged yet: --all shows them)')
    expect(lines).toHaveLength(4)

    const all = await cli(['incidents', '--all', ...reach])
    expect(all.stdout).toContain('still waiting')
    expect(all.stdout).not.toContain('pending, not paged yet')
  })

  it('in a fleet, names the hosts that saw each incident, with their lines, instead of whom it paged', async () => {
    fake.incidents = [
      incident('errors:3fa9c0d1e2f3a4', {
        count: 123,
        lastSeen: Date.now() - 60_000,
        hosts: [
          { agent: 'web-1', count: 120, last: Date.now() },
          { agent: 'web-2', count: 3, last: Date.now() },
        ],
      }),
      incident('db:77ab01cd23ef45', { count: 2, lastSeen: Date.now() - 60_000, hosts: [] }),
    ]
    const lines = (await cli(['incidents', ...reach])).stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATE\s+COUNT\s+RULE\s+TITLE\s+HOSTS\s+ACKED BY\s+LAST SEEN$/)
    expect(lines[1]).toMatch(
      /^3fa9c0d1\s+firing\s+123\s+errors\s+query failed\s+web-1:120,web-2:3\s+-\s+1m(?:\d+s)? ago$/,
    )
    expect(lines[2]).toMatch(/^77ab01cd\s+firing\s+2\s+db\s+query failed\s+-\s+-\s+1m(?:\d+s)? ago$/)
  })

  it('cuts a long title so the row fits the width', async () => {
    fake.incidents = [incident('errors:3fa9c0d1e2f3a4', { title: `connection refused ${'x'.repeat(300)}` })]
    const out = await cli(['incidents', ...reach])
    const row = out.stdout.split('\n')[1] ?? ''
    expect(row.length).toBeLessThanOrEqual(120)
    expect(row).toMatch(/connection refused x+… +- +- +3m(?:\d+s)? ago$/)
  })

  it('says so when nothing is open', async () => {
    const out = await cli(['incidents', ...reach])
    expect(out).toEqual({ code: 0, stdout: 'no open incidents\n', stderr: '' })
  })

  it('--json prints the API array as it came', async () => {
    fake.incidents = [incident('errors:3fa9c0d1e2f3a4', { paged: ['asha'] })]
    const out = await cli(['incidents', '--json', ...reach])
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual(JSON.parse(JSON.stringify(fake.incidents)))
  })
})

describe('finding the agent and its token', () => {
  it('sends the token of --token-file as a bearer token, with x-logx-client: cli', async () => {
    await cli(['incidents', ...reach])
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${fake.token}`)
    expect(fake.requests[0]?.headers['x-logx-client']).toBe('cli')
  })

  it('takes the token from LOGX_CONSOLE_TOKEN', async () => {
    const { io, out } = capture()
    const code = await incidentsCommand(
      { config: 'unused.yaml', url: fake.url, tokenFile: undefined, json: false, all: false },
      io,
      { LOGX_CONSOLE_TOKEN: fake.token },
    )
    expect({ code, ...out() }).toEqual({ code: 0, stdout: 'no open incidents\n', stderr: '' })
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${fake.token}`)
  })

  it('finds url and token in the state directory of --config (console.json, console.token)', async () => {
    const { config, stateDir } = agentConfig('state-dir')
    writeFileSync(join(stateDir, 'console.json'), fake.consoleJson())
    writeFileSync(join(stateDir, 'console.token'), fake.token, { mode: 0o600 })
    const out = await cli(['incidents', '--config', config])
    expect(out).toEqual({ code: 0, stdout: 'no open incidents\n', stderr: '' })
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${fake.token}`)
  })

  it("uses the config's console.token when it sets one", async () => {
    const { config, stateDir } = agentConfig('configured-token', `console:\n  token: \${TEST_CONSOLE_TOKEN}\n`)
    writeFileSync(join(stateDir, 'console.json'), fake.consoleJson())
    const { io, out } = capture()
    const args = { config, url: undefined, tokenFile: undefined, json: false, all: false }
    const code = await incidentsCommand(args, io, { TEST_CONSOLE_TOKEN: fake.token })
    expect({ code, ...out() }).toEqual({ code: 0, stdout: 'no open incidents\n', stderr: '' })
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${fake.token}`)
  })

  it('says no agent is running when the state directory has no console.json', async () => {
    const { config, stateDir } = agentConfig('not-running')
    const out = await cli(['incidents', '--config', config])
    expect(out).toEqual({
      code: 1,
      stdout: '',
      stderr: `logx-agent: no logx-agent is running for ${stateDir} (no ${join(stateDir, 'console.json')})\n`,
    })
  })

  it('says it cannot reach an agent that is not answering, or that left its console.json behind', async () => {
    const { config, stateDir } = agentConfig('gone')
    const file = join(stateDir, 'console.json')
    writeFileSync(file, fake.consoleJson())
    const url = fake.url
    await fake.close()
    const out = await cli(['incidents', '--config', config])
    expect(out).toEqual({ code: 1, stdout: '', stderr: `logx-agent: cannot reach the agent at ${url}: ECONNREFUSED\n` })
    // The pid it names is gone (a process that ran and exited): nothing is asked of the port at all.
    const gone = spawnSync(process.execPath, ['-e', '']).pid
    writeFileSync(file, JSON.stringify({ url, pid: gone, key: fake.identityKey }))
    const killed = await cli(['incidents', '--config', config])
    expect(killed).toEqual({
      code: 1,
      stdout: '',
      stderr: `logx-agent: no running agent: ${file} is stale (pid ${gone} not alive)\n`,
    })
    fake = await startFakeConsole() // for afterEach
  })

  it('a config that does not load is named with its problems', async () => {
    const bad = join(dir, 'bad.yaml')
    writeFileSync(bad, 'sources: 3\n')
    const out = await cli(['incidents', '--config', bad])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(`logx-agent: cannot find the agent through ${bad}: the config does not load\n`)
    expect(out.stderr).toContain(`\n  ${bad}:1:10 sources: expected a list, got a number\n`)
    expect(out.stderr).toContain('or pass --url with --token-file or LOGX_CONSOLE_TOKEN')
  })

  it('a refused token gets the hint, and the token is not printed', async () => {
    writeFileSync(tokenFile, 'tok-wrong-secret\n')
    const out = await cli(['incidents', ...reach])
    expect(out).toEqual({
      code: 1,
      stdout: '',
      stderr: 'logx-agent: the console token was refused (set --token-file or LOGX_CONSOLE_TOKEN)\n',
    })
  })

  it('an unreadable --token-file is named', async () => {
    const out = await cli(['incidents', '--url', fake.url, '--token-file', join(dir, 'nope')])
    expect(out).toEqual({
      code: 1,
      stdout: '',
      stderr: `logx-agent: --token-file: cannot read ${join(dir, 'nope')} (ENOENT)\n`,
    })
  })
})

describe('logx-agent ack | unack | resolve', () => {
  beforeEach(() => {
    fake.incidents = [
      incident('errors:3fa9c0d1e2f3a4', { title: 'query failed', paged: ['asha'] }),
      incident('errors:3fb00000000000', { title: 'disk full' }),
      incident('db:77ab01cd23ef45', {
        title: 'db down',
        state: 'acknowledged',
        ack: { by: 'asha', via: 'missed_call', at: Date.now() },
      }),
    ]
  })

  it('acknowledges by a unique prefix, as the cli, by --by', async () => {
    const out = await cli(['ack', 'errors:3fa', '--by', 'ravi', ...reach])
    expect(out).toEqual({ code: 0, stdout: 'acknowledged 3fa9c0d1 query failed (by ravi)\n', stderr: '' })
    const post = fake.requests.find((r) => r.method === 'POST')
    expect(post?.url).toBe('/api/incidents/errors%3A3fa9c0d1e2f3a4/ack')
    expect(post?.body).toEqual({ by: 'ravi' })
    expect(post?.headers['x-logx-client']).toBe('cli')
    expect(post?.headers.authorization).toBe(`Bearer ${fake.token}`)
    expect(fake.incidents[0]?.ack).toMatchObject({ by: 'ravi', via: 'cli' })
  })

  it('takes a prefix of the hash too, and $USER as who', async () => {
    const { io, out } = capture()
    const args = {
      config: 'unused.yaml',
      url: fake.url,
      tokenFile: tokenFile,
      json: false,
      action: 'resolve' as const,
      incident: '77ab',
      by: undefined,
    }
    const code = await ackCommand(args, io, { USER: 'meera' })
    expect({ code, ...out() }).toEqual({ code: 0, stdout: 'resolved 77ab01cd db down (by meera)\n', stderr: '' })
    expect(fake.incidents.map((i) => i.id)).not.toContain('db:77ab01cd23ef45')
  })

  it('unack puts it back to firing', async () => {
    const out = await cli(['unack', 'db:77ab01cd23ef45', '--by', 'asha', ...reach])
    expect(out).toEqual({ code: 0, stdout: 'unacknowledged 77ab01cd db down (by asha)\n', stderr: '' })
    expect(fake.incidents[2]?.state).toBe('firing')
  })

  it('--json prints the incident the API answered', async () => {
    const out = await cli(['ack', 'errors:3fa9c0d1e2f3a4', '--by', 'ravi', '--json', ...reach])
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({
      id: 'errors:3fa9c0d1e2f3a4',
      state: 'acknowledged',
      ack: { by: 'ravi', via: 'cli' },
      timeline: [],
    })
  })

  it("a refused action prints the API's reason and exits 1", async () => {
    const out = await cli(['ack', 'db:77', '--by', 'ravi', ...reach])
    expect(out).toEqual({ code: 1, stdout: '', stderr: 'logx-agent: already acknowledged by asha via missed call\n' })
  })

  it('an incident that is not open is not found, exit 1', async () => {
    const out = await cli(['resolve', 'nope:1234', '--by', 'ravi', ...reach])
    expect(out).toEqual({ code: 1, stdout: '', stderr: 'logx-agent: no open incident nope:1234\n' })
    expect(fake.requests.some((r) => r.method === 'POST')).toBe(false)
  })

  it('an ambiguous prefix lists the candidates and acts on none', async () => {
    const out = await cli(['ack', 'errors:3f', '--by', 'ravi', ...reach])
    expect(out.code).toBe(1)
    expect(out.stderr).toBe(
      'logx-agent: errors:3f names 2 open incidents; give more of the key:\n' +
        '  errors:3fa9c0d1e2f3a4  firing  query failed\n' +
        '  errors:3fb00000000000  firing  disk full\n',
    )
    expect(fake.requests.some((r) => r.method === 'POST')).toBe(false)
  })

  it('an incident resolved between the listing and the action is not found (404)', async () => {
    fake.afterList = () => fake.incidents.splice(0, 1) // its resolve_after ends it right after the CLI listed it
    const out = await cli(['ack', 'errors:3fa9', '--by', 'ravi', ...reach])
    expect(out).toEqual({ code: 1, stdout: '', stderr: 'logx-agent: no open incident errors:3fa9\n' })
    expect(fake.requests.map((r) => r.method)).toEqual(['GET', 'POST'])
  })

  it('a missing incident argument is a usage error (exit 2)', async () => {
    const out = await cli(['ack', ...reach])
    expect(out.code).toBe(2)
    expect(out.stderr).toBe('logx-agent: missing argument <incident>\nRun logx-agent ack --help for usage.\n')
  })
})

describe('logx-agent silence', () => {
  it('creates a silence from --match and --for, and prints its id and expiry', async () => {
    const out = await cli([
      'silence',
      '--match',
      'rule=db',
      '--match',
      'msg=/time ?out/i',
      '--for',
      '2h',
      '--comment',
      'db migration',
      '--by',
      'asha',
      ...reach,
    ])
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(out.stdout).toMatch(
      /^silence s-1 until \d{4}-\d\d-\d\d \d\d:\d\d \(in (2h|1h59m)\): rule=db msg=\/time \?out\/i\n$/,
    )
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/silences',
      body: { matchers: { rule: 'db', msg: '/time ?out/i' }, duration: '2h', comment: 'db migration', by: 'asha' },
    })
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${fake.token}`)
  })

  it('a bad --match or --for is a usage error naming the option; nothing is sent', async () => {
    const noEquals = await cli(['silence', '--match', 'rule', '--for', '2h', ...reach])
    expect(noEquals.code).toBe(2)
    expect(noEquals.stderr).toContain('logx-agent: --match "rule": expected key=value')
    const badRegex = await cli(['silence', '--match', 'msg=/(/', '--for', '2h', ...reach])
    expect(badRegex.code).toBe(2)
    expect(badRegex.stderr).toContain('logx-agent: --match "msg=/(/": invalid regular expression')
    const noMatch = await cli(['silence', '--for', '2h', ...reach])
    expect(noMatch.code).toBe(2)
    expect(noMatch.stderr).toContain('silence needs at least one --match')
    const badFor = await cli(['silence', '--match', 'rule=db', '--for', 'two hours', ...reach])
    expect(badFor.code).toBe(2)
    expect(badFor.stderr).toContain('logx-agent: --for "two hours": expected a duration')
    const noFor = await cli(['silence', '--match', 'rule=db', ...reach])
    expect(noFor.code).toBe(2)
    expect(noFor.stderr).toContain('silence needs --for')
    expect(fake.requests).toEqual([])
  })

  it('lists the silences, runtime and config ones', async () => {
    const now = Date.now()
    fake.silences = [
      {
        id: 's-1',
        matchers: { rule: 'db' },
        startsAt: now,
        endsAt: now + 7_200_000 + 30_000,
        comment: 'db migration',
        createdBy: 'asha',
        origin: 'runtime',
      },
      {
        id: 'silence-1',
        matchers: { host: 'web1', msg: '/timeout/' },
        startsAt: now,
        endsAt: now - 60_000,
        comment: undefined,
        createdBy: undefined,
        origin: 'config',
      },
    ]
    const out = await cli(['silence', 'list', ...reach])
    expect(out.code).toBe(0)
    const lines = out.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+MATCHERS\s+UNTIL\s+COMMENT\s+BY\s+ORIGIN$/)
    expect(lines[1]).toMatch(/^s-1\s+rule=db\s+\d{4}-\d\d-\d\d \d\d:\d\d \(in 2h\)\s+db migration\s+asha\s+runtime$/)
    expect(lines[2]).toMatch(
      /^silence-1\s+host=web1 msg=\/timeout\/\s+\d{4}-\d\d-\d\d \d\d:\d\d \(expired\)\s+-\s+-\s+config$/,
    )

    const json = await cli(['silence', 'list', '--json', ...reach])
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(fake.silences)))
    fake.silences = []
    expect((await cli(['silence', 'list', ...reach])).stdout).toBe('no silences\n')
  })

  it('expires a runtime silence; a config one or an unknown id is refused (exit 1)', async () => {
    const now = Date.now()
    fake.silences = [
      {
        id: 's-1',
        matchers: { rule: 'db' },
        startsAt: now,
        endsAt: now + 3_600_000,
        comment: undefined,
        createdBy: 'asha',
        origin: 'runtime',
      },
      {
        id: 'silence-1',
        matchers: { rule: 'errors' },
        startsAt: now,
        endsAt: now + 3_600_000,
        comment: undefined,
        createdBy: undefined,
        origin: 'config',
      },
    ]
    expect(await cli(['silence', 'expire', 's-1', ...reach])).toEqual({
      code: 0,
      stdout: 'expired silence s-1: rule=db\n',
      stderr: '',
    })
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/silences/s-1' })
    expect(await cli(['silence', 'expire', 'silence-1', ...reach])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'logx-agent: silence silence-1 comes from the config: remove it there\n',
    })
    expect(await cli(['silence', 'expire', 's-9', ...reach])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'logx-agent: no silence s-9\n',
    })
  })
})
