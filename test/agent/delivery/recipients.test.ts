// Whom a channel's message goes to (agent/delivery/channels/recipients.ts): the channel's own
// recipients, or the people an escalation step names, by the address each channel type uses. The
// deliveries come from a real engine built from a YAML config, as the dispatcher gets them.
import { describe, expect, it } from 'vitest'
import { createAlertEngine, type Delivery } from '../../../alerts'
import { parseAgentConfig } from '../../../agent/config/load/load-config'
import type { AgentConfig, ChannelConfig } from '../../../agent/config/types'
import { engineOptionsOfSetup, setupOfConfig } from '../../../agent/delivery/alert-setup'
import { addressed, type PeopleDirectory } from '../../../agent/delivery/channels/recipients'

function load(): AgentConfig {
  const result = parseAgentConfig(
    `state_dir: /tmp/logx-recipients-unused
sources: [{ name: app, paths: [/tmp/logx-recipients-unused/*.log] }]
people:
  asha: { phone: "+919800000001", email: asha@example.com, chat: "+91 98000 00002" }
  ravi: { phone: "+91 98000 00003", email: ravi@example.com }
channels:
  oncall-sms: { type: sms, numbers: ["919800000009"] }
  team-chat: { type: chat, template_id: 101, numbers: ["+919800000008"] }
  oncall-mail: { type: mail, from: alerts@example.com, to: [desk@example.com] }
  oncall-voice: { type: voice, receivers: [{ label: desk, number: "919800000007" }], audio: [alert.mp3] }
rules:
  - name: errors
    notify: [oncall-sms, team-chat, oncall-mail, oncall-voice]
    escalate:
      - { after: 1m, notify: [oncall-sms, team-chat, oncall-mail, oncall-voice], people: [ravi, asha] }
`,
    'agent.yaml',
  )
  if (!result.ok) throw new Error(JSON.stringify(result.problems))
  return result.config
}

/** The first page (no people) and the escalation's (people: ravi, asha), per channel. */
function deliveries(config: AgentConfig): { first: Map<string, Delivery>; escalated: Map<string, Delivery> } {
  const engine = createAlertEngine(engineOptionsOfSetup(setupOfConfig(config, []), 0))
  const first = engine.ingest(JSON.stringify({ level: 50, msg: 'db down' }), 1000)
  const escalated = engine.tick(61_000).filter((d) => d.notice.kind === 'escalated')
  const byChannel = (list: Delivery[]) => new Map(list.map((d) => [d.notice.channel, d]))
  return { first: byChannel(first), escalated: byChannel(escalated) }
}

function parts(
  config: AgentConfig,
  name: string,
): { channel: ChannelConfig; first: Delivery; escalated: Delivery; directory: PeopleDirectory } {
  const channel = config.channels.find((c) => c.name === name)
  const { first, escalated } = deliveries(config)
  const f = first.get(name)
  const e = escalated.get(name)
  if (channel === undefined || f === undefined || e === undefined) throw new Error(`no ${name} deliveries`)
  return { channel, first: f, escalated: e, directory: new Map(config.people.map((p) => [p.name, p])) }
}

const numbersOf = (channel: ChannelConfig) =>
  channel.type === 'sms' || channel.type === 'chat' ? channel.numbers : undefined

describe("a step's people replace the channel's recipients", () => {
  const config = load()

  it('the escalation notice carries the people of its step; the first page none', () => {
    const { first, escalated } = deliveries(config)
    expect(escalated.get('oncall-sms')?.notice.people).toEqual(['ravi', 'asha'])
    expect(first.get('oncall-sms')?.notice.people).toBeUndefined()
  })

  it('sms: their phones', () => {
    const { channel, escalated, directory } = parts(config, 'oncall-sms')
    const out = addressed(channel, escalated, directory)
    expect(numbersOf(out.channel)).toEqual(['+91 98000 00003', '+919800000001'])
    expect(out.delivery).toBe(escalated)
    // The channel of the config is not changed for the next message.
    expect(numbersOf(channel)).toEqual(['919800000009'])
  })

  it('chat: their chat number, else their phone, without blanks', () => {
    const { channel, escalated, directory } = parts(config, 'team-chat')
    expect(numbersOf(addressed(channel, escalated, directory).channel)).toEqual(['+919800000003', '+919800000002'])
  })

  it('mail: their e-mail addresses', () => {
    const { channel, escalated, directory } = parts(config, 'oncall-mail')
    const out = addressed(channel, escalated, directory).channel
    expect(out.type === 'mail' ? out.to : undefined).toEqual(['ravi@example.com', 'asha@example.com'])
  })

  it('voice: their phones, each labelled with the name', () => {
    const { channel, escalated, directory } = parts(config, 'oncall-voice')
    const out = addressed(channel, escalated, directory)
    expect(out.channel).toBe(channel)
    expect(out.delivery.message).toMatchObject({
      type: 'voice',
      receivers: [
        { label: 'ravi', number: '+91 98000 00003' },
        { label: 'asha', number: '+919800000001' },
      ],
    })
    // The engine's delivery is left as it was.
    expect(escalated.message).toMatchObject({ receivers: [{ label: 'desk', number: '919800000007' }] })
  })

  it('a name the directory does not know is left out', () => {
    const { channel, escalated, directory } = parts(config, 'oncall-sms')
    const onlyAsha: PeopleDirectory = new Map([...directory].filter(([name]) => name === 'asha'))
    expect(numbersOf(addressed(channel, escalated, onlyAsha).channel)).toEqual(['+919800000001'])
  })
})

describe('without people nothing changes', () => {
  const config = load()

  it.each(['oncall-sms', 'team-chat', 'oncall-mail', 'oncall-voice'])(
    '%s: the channel and the delivery as they are',
    (name) => {
      const { channel, first, directory } = parts(config, name)
      const out = addressed(channel, first, directory)
      expect(out.channel).toBe(channel)
      expect(out.delivery).toBe(first)
    },
  )

  it('an empty people list is no people', () => {
    const { channel, escalated, directory } = parts(config, 'oncall-sms')
    const none: Delivery = { ...escalated, notice: { ...escalated.notice, people: [] } }
    expect(addressed(channel, none, directory)).toEqual({ channel, delivery: none })
  })
})
