// Whom a channel's message goes to. A channel's own recipients (its numbers, addresses, receivers,
// with the people it names already merged in by the config) unless the escalation step names people:
// then those people, by the address this channel type uses (the config checked they have it).
import type { Delivery } from '../../../alerts'
import type { ChannelConfig, PersonConfig } from '../../config/types'
import { compactChatNumber } from '../../messaging/validate'

export type PeopleDirectory = ReadonlyMap<string, PersonConfig>

function present<T>(values: readonly (T | undefined)[]): T[] {
  return values.filter((v): v is T => v !== undefined)
}

/** The channel and delivery to build requests from, with the step's people as recipients when it names some. */
export function addressed(
  channel: ChannelConfig,
  delivery: Delivery,
  directory: PeopleDirectory,
): { channel: ChannelConfig; delivery: Delivery } {
  const names = delivery.notice.people
  if (names === undefined || names.length === 0) return { channel, delivery }
  const people = present(names.map((name) => directory.get(name)))
  switch (channel.type) {
    case 'sms':
      return { channel: { ...channel, numbers: present(people.map((p) => p.phone)) }, delivery }
    case 'chat':
      return {
        channel: { ...channel, numbers: present(people.map((p) => p.chat ?? p.phone)).map(compactChatNumber) },
        delivery,
      }
    case 'mail':
      return { channel: { ...channel, to: present(people.map((p) => p.email)) }, delivery }
    case 'voice': {
      if (delivery.message.type !== 'voice') return { channel, delivery }
      const receivers = present(
        people.map((p) => (p.phone === undefined ? undefined : { label: p.name, number: p.phone })),
      )
      return { channel, delivery: { ...delivery, message: { ...delivery.message, receivers } } }
    }
  }
}
