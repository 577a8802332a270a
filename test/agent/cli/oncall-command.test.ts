// `logx-agent oncall`, run as a user runs it (runCli with a command line) over a real config file:
// who holds each layer at a moment, until when, the next handoffs on the schedule's own clock
// (across a DST change too), the three ways to say when, and the mistakes a user can make.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { capture, cli } from './capture'
import { oncallCommand } from '../../../agent/cli/oncall-command'
import { suiteTempDir } from '../../helpers/temp-dir'

const dir = suiteTempDir('oncall')
let config: string
let bare: string

// ops: weekly on Mondays 09:00 in Kolkata (UTC+05:30, no DST) from Monday 2026-01-05, so the week
// from 2026-03-02 is turn 8: meera on primary (8 mod 3 = 2), asha on secondary; ravi covers primary
// from Wednesday 10:00 to Friday 18:00. eu: daily at 09:00 in Berlin, across the switch to summer
// time on Sunday 2026-03-29 (02:00 CET -> 03:00 CEST).
function write(home: string, schedules: string): string {
  const file = join(home, `${schedules === '' ? 'bare' : 'agent'}.yaml`)
  writeFileSync(
    file,
    `messaging:
  base_url: http://127.0.0.1:9/
  api_key: never-used-key
state_dir: ${join(home, 'state')}
sources:
  - name: app
    paths: [${home}/*.log]
people:
  asha: { phone: "+919800000001" }
  ravi: { phone: "+919800000003" }
  meera: { phone: "+919800000004" }
channels:
  oncall-sms: { type: sms, people: [asha] }
rules:
  - name: errors
    notify: oncall-sms
${schedules}`,
  )
  return file
}

beforeAll(() => {
  config = write(
    dir,
    `schedules:
  ops:
    time_zone: Asia/Kolkata
    layers:
      - name: primary
        users: [asha, ravi, meera]
        rotation: weekly
        start: "2026-01-05"
      - name: secondary
        users: [ravi, meera, asha]
        rotation: weekly
        start: "2026-01-05"
    overrides:
      - { user: ravi, from: "2026-03-04T10:00", to: "2026-03-06T18:00", layer: primary }
  eu:
    time_zone: Europe/Berlin
    layers:
      - name: day
        users: [asha, meera]
        rotation: daily
        handoff: "09:00"
        start: "2026-03-01"
`,
  )
  bare = write(dir, '')
})

const OPS_AT_NOON = [
  'ops at Wed 2026-03-04 12:00 (Asia/Kolkata)',
  '  primary: ravi (override) until Fri 2026-03-06 18:00 (in 2d6h)',
  '    Fri 2026-03-06 18:00  meera',
  '    Mon 2026-03-09 09:00  asha',
  '    Mon 2026-03-16 09:00  ravi',
  '  secondary: asha until Mon 2026-03-09 09:00 (in 4d21h)',
  '    Mon 2026-03-09 09:00  ravi',
  '    Mon 2026-03-16 09:00  meera',
  '    Mon 2026-03-23 09:00  asha',
  '',
].join('\n')

describe('logx-agent oncall', () => {
  it("prints who holds each layer, until when, and the next three handoffs in the schedule's zone", async () => {
    const run = await cli(['oncall', 'ops', '--config', config, '--at', '2026-03-04T12:00'])
    expect(run).toEqual({ code: 0, stdout: OPS_AT_NOON, stderr: '' })
  })

  it("reads --at as a wall time in the schedule's zone, an instant with Z or an offset, or epoch ms: the same moment", async () => {
    for (const at of ['2026-03-04T06:30Z', '2026-03-04T12:00+05:30', '2026-03-04 12:00:00', '1772605800000']) {
      const run = await cli(['oncall', 'ops', '--config', config, '--at', at])
      expect(run.stdout, at).toBe(OPS_AT_NOON)
    }
  })

  it('keeps daily handoffs at 09:00 local across the switch to summer time, and counts the real hours to the next', async () => {
    const run = await cli(['oncall', 'eu', '--config', config, '--at', '2026-03-28T12:00', '--handoffs', '4'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        'eu at Sat 2026-03-28 12:00 (Europe/Berlin)',
        // 12:00 CET to 09:00 CEST is 20 hours, not 21.
        '  day: meera until Sun 2026-03-29 09:00 (in 20h)',
        '    Sun 2026-03-29 09:00  asha',
        '    Mon 2026-03-30 09:00  meera',
        '    Tue 2026-03-31 09:00  asha',
        '    Wed 2026-04-01 09:00  meera',
        '',
      ].join('\n'),
    )
  })

  it('without a schedule lists every one, each at the wall time given on its own clock', async () => {
    const run = await cli(['oncall', '--config', config, '--at', '2026-03-04T12:00', '--handoffs', '0'])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        'ops at Wed 2026-03-04 12:00 (Asia/Kolkata)',
        '  primary: ravi (override) until Fri 2026-03-06 18:00 (in 2d6h)',
        '  secondary: asha until Mon 2026-03-09 09:00 (in 4d21h)',
        '',
        'eu at Wed 2026-03-04 12:00 (Europe/Berlin)',
        // Day 3 from 2026-03-01: meera (3 mod 2 = 1).
        '  day: meera until Thu 2026-03-05 09:00 (in 21h)',
        '',
      ].join('\n'),
    )
  })

  it("--json gives the instant asked about and every layer, as the console's API does", async () => {
    const run = await cli([
      'oncall',
      'ops',
      '--config',
      config,
      '--at',
      '2026-03-04T12:00',
      '--handoffs',
      '1',
      '--json',
    ])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      schedules: [
        {
          name: 'ops',
          timeZone: 'Asia/Kolkata',
          at: Date.parse('2026-03-04T06:30:00Z'),
          layers: [
            {
              name: 'primary',
              timeZone: 'Asia/Kolkata',
              now: { user: 'ravi', until: Date.parse('2026-03-06T12:30:00Z'), override: true },
              next: [{ at: Date.parse('2026-03-06T12:30:00Z'), user: 'meera', override: false }],
            },
            {
              name: 'secondary',
              timeZone: 'Asia/Kolkata',
              now: { user: 'asha', until: Date.parse('2026-03-09T03:30:00Z'), override: false },
              next: [{ at: Date.parse('2026-03-09T03:30:00Z'), user: 'ravi', override: false }],
            },
          ],
        },
      ],
    })
  })

  it('asks about now when no --at is given', async () => {
    const { io, out } = capture()
    const now = Date.parse('2026-03-04T06:30:00Z')
    const code = await oncallCommand({ config, schedule: 'ops', at: undefined, json: false, handoffs: 3 }, io, now)
    expect(code).toBe(0)
    expect(out().stdout).toBe(OPS_AT_NOON.replace('ops at Wed', 'ops now, Wed'))
  })

  it('refuses an unknown schedule, naming the known ones (exit 1)', async () => {
    const run = await cli(['oncall', 'opps', '--config', config])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`logx-agent: no schedule named "opps" in ${config} (schedules: ops, eu)\n`)
  })

  it('says so when the config has no schedules (exit 1)', async () => {
    const run = await cli(['oncall', '--config', bare])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`${bare} defines no schedules`)
  })

  it('refuses a TIME it cannot read and a handoff count out of range, as usage errors (exit 2)', async () => {
    for (const at of [
      'tomorrow',
      '2026-02-30T09:00',
      '2026-03-04T25:00',
      '2026-02-31T09:00Z',
      '2026-03-04T12:00 IST',
    ]) {
      const run = await cli(['oncall', 'ops', '--config', config, '--at', at])
      expect(run.code, at).toBe(2)
      expect(run.stderr, at).toContain(`--at "${at}": expected a wall time in the schedule's zone`)
    }
    for (const n of ['-1', '101', '1.5']) {
      const run = await cli(['oncall', 'ops', '--config', config, '--handoffs', n])
      expect(run.code, n).toBe(2)
      expect(run.stderr, n).toContain('--handoffs')
    }
  })

  it("prints the config's problems when it does not load (exit 1)", async () => {
    const broken = join(dir, 'broken.yaml')
    writeFileSync(broken, 'schedules:\n  ops:\n    time_zone: Mars/Olympus\n    layers: []\n')
    const run = await cli(['oncall', '--config', broken])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/broken\.yaml:\d+:\d+ /)
  })
})
