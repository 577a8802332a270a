// The digest sender on a real state_dir with a stand-in alert path (the dispatcher records what it is
// handed): when it sends, that a restart does not send again, one digest after a downtime, a failure
// retried without advancing, and the messages per channel type.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Delivery, IncidentSnapshot } from '../../../alerts'
import type { KindEntry } from '../../../alerts/kinds'
import { formatProblem, parseAgentConfig, type AgentConfig } from '../../../agent/config'
import { createDigestSender, type DigestSenderOptions } from '../../../agent/daemon/digest'
import { DAY_MS } from '../../../agent/daemon/digest-plan'
import { pollUntil } from '../../helpers/poll-until'
import { tempDir } from '../../helpers/temp-dir'

const H = 3_600_000
/** 09:00 in Asia/Kolkata on 2026-12-02. */
const NINE = Date.UTC(2026, 11, 2, 3, 30)

function configOf(digest: string, stateDir: string): AgentConfig {
  const yaml = `state_dir: ${stateDir}
sources: [{ name: app, paths: [/tmp/none/*.log] }]
channels:
  team-mail: { type: mail, from: logx@example.com, to: ops@example.com }
  team-sms: { type: sms, numbers: [919800000001], max_length: 160 }
  team-chat: { type: chat, numbers: ["+919800000001"], template_id: 7, variables: ["{{status}}", "{{title}}"] }
${digest}`
  const result = parseAgentConfig(yaml, 'agent.yaml', { env: {}, cwd: stateDir })
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'))
  return result.config
}

const DIGEST = 'digest: { every: 1d, at: "09:00", time_zone: Asia/Kolkata, notify: [team-mail, team-sms, team-chat] }'

const kind: KindEntry = {
  id: 'k1',
  source: 'app',
  template: 'Connection refused to <*>:<*>',
  aliases: [],
  level: 50,
  firstSeen: NINE - 5 * H,
  lastSeen: NINE - H,
  lastResolved: undefined,
  count: 3,
  hourly: [[NINE - 5.5 * H, 3]],
  hosts: ['web-1'],
  sample: '',
  incident: undefined,
  learned: false,
}

interface Harness {
  options: DigestSenderOptions
  sent: Delivery[][]
  clock: { now: number }
}

function harness(stateDir: string, digest = DIGEST, dispatch?: (d: readonly Delivery[]) => void): Harness {
  const sent: Delivery[][] = []
  const clock = { now: NINE }
  const config = configOf(digest, stateDir)
  const path = {
    pipeline: { incidents: (): IncidentSnapshot[] => [] },
    timeline: { of: () => [] },
    dispatcher: {
      dispatch: (deliveries: readonly Delivery[]) => {
        dispatch?.(deliveries)
        sent.push([...deliveries])
      },
    },
  } as unknown as DigestSenderOptions['path']
  const log = { info: () => {}, warn: () => {}, error: () => {} }
  const options = {
    config: () => config,
    stateDir,
    path,
    kinds: () => [kind],
    log,
    now: () => clock.now,
    host: 'web-1',
  }
  return { options, sent, clock }
}

function run(h: Harness): ReturnType<typeof createDigestSender> {
  const sender = createDigestSender(h.options)
  sender.apply()
  sender.stop()
  return sender
}

describe('digest sender', () => {
  it('on a first start, begins the schedule: nothing sent, the latest slot kept in state_dir', () => {
    const dir = tempDir('digest')
    const h = harness(dir)
    h.clock.now = NINE + 2 * H
    const sender = run(h)
    expect(h.sent).toEqual([])
    expect(sender.stats()).toMatchObject({ covered: NINE, nextAt: NINE + DAY_MS, sent: 0 })
    expect(JSON.parse(readFileSync(join(dir, 'digest.json'), 'utf8'))).toMatchObject({ version: 1, covered: NINE })
  })

  it('sends one message per channel when a slot passes, and a restart does not send it again', () => {
    const dir = tempDir('digest')
    const first = harness(dir)
    first.clock.now = NINE - H
    run(first)
    first.clock.now = NINE + 1000
    run(first)
    expect(first.sent).toHaveLength(1)
    const [mail, sms, chat] = first.sent[0] ?? []
    expect(mail?.message).toMatchObject({ type: 'mail', subject: expect.stringContaining('1 new kind') })
    expect(mail?.message.type === 'mail' && mail.message.html).toContain('Connection refused to &#60;*&#62;')
    expect(sms?.message.type === 'sms' && sms.message.text.length).toBeLessThanOrEqual(160)
    expect(chat?.message).toMatchObject({ type: 'chat', variables: ['DIGEST', expect.stringContaining('1 new kind')] })
    expect(mail?.notice).toMatchObject({ kind: 'digest', channel: 'team-mail' })
    // The restart: the same state_dir, the same moment, a new sender.
    const again = harness(dir)
    again.clock.now = NINE + 2000
    expect(run(again).stats()).toMatchObject({ covered: NINE, nextAt: NINE + DAY_MS })
    expect(again.sent).toEqual([])
  })

  it('after three days down, sends one digest covering them, not three', () => {
    const dir = tempDir('digest')
    const h = harness(dir)
    h.clock.now = NINE - 3 * DAY_MS + H
    run(h)
    h.clock.now = NINE + 5 * H
    run(h)
    expect(h.sent).toHaveLength(1)
    const mail = h.sent[0]?.[0]
    expect(mail?.notice.incident).toMatchObject({ firstSeen: NINE - 3 * DAY_MS, lastSeen: NINE })
  })

  it('a digest the outbox refused is tried again, its period not taken as covered', () => {
    const dir = tempDir('digest')
    let refuse = true
    const h = harness(dir, DIGEST, () => {
      if (refuse) throw new Error('outbox journal: ENOSPC')
    })
    h.clock.now = NINE - H
    run(h)
    h.clock.now = NINE + 1000
    expect(run(h).stats()).toMatchObject({ failed: 1, covered: NINE - DAY_MS })
    refuse = false
    expect(run(h).stats()).toMatchObject({ sent: 1, covered: NINE })
    expect(h.sent).toHaveLength(1)
  })

  it('its timer sends the digest when the slot comes', async () => {
    const dir = tempDir('digest')
    const h = harness(dir, DIGEST.replace('every: 1d', 'every: 1h'))
    const offset = NINE - 200 - Date.now()
    h.options.now = () => Date.now() + offset
    const sender = createDigestSender(h.options)
    sender.apply()
    try {
      expect(h.sent).toEqual([])
      await pollUntil('the digest at 09:00', () => h.sent.length === 1)
      expect(sender.stats()).toMatchObject({ covered: NINE, nextAt: NINE + H })
    } finally {
      sender.stop()
    }
  })

  it('a damaged digest.json is kept aside and the schedule begins again: nothing sent twice', () => {
    const dir = tempDir('digest')
    writeFileSync(join(dir, 'digest.json'), '{"version":1,"cove')
    const h = harness(dir)
    h.clock.now = NINE + H
    expect(run(h).stats()).toMatchObject({ covered: NINE, nextAt: NINE + DAY_MS })
    expect(h.sent).toEqual([])
    expect(readdirSync(dir).filter((f) => f.startsWith('digest.json.corrupt-'))).toHaveLength(1)
    expect(JSON.parse(readFileSync(join(dir, 'digest.json'), 'utf8'))).toMatchObject({ covered: NINE })
  })

  it('without digest: in the config, plans nothing and writes nothing', () => {
    const dir = tempDir('digest')
    const h = harness(dir, '')
    expect(run(h).stats()).toMatchObject({ nextAt: undefined, covered: undefined })
    expect(existsSync(join(dir, 'digest.json'))).toBe(false)
  })
})
