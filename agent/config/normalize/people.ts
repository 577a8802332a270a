// people: name -> how to reach them. Channels and escalation steps name people instead of
// repeating numbers; the directory resolves those names (unknown ones with a did-you-mean) and
// gives the address a channel sends to, reporting a person without it where they are named.
import { compactChatNumber, isChatNumber, samePhone } from '../../messaging/validate'
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import { resolveLocated } from './references'
import type { ChannelType, PersonConfig } from '../types'
import type { Located } from '../shape/written-list'
import type { PersonInput } from '../shape/written-types'
import type { Segment } from '../load/yaml-source'

export function normalizePeople(written: Record<string, PersonInput> | undefined, ctx: CheckContext): PersonConfig[] {
  const people = Object.entries(written ?? {}).map(([name, p]) => ({
    name,
    phone: p.phone,
    email: p.email,
    // Kept as the API takes it, like a chat channel's numbers.
    chat: p.chat === undefined ? undefined : compactChatNumber(p.chat),
  }))
  checkPhonesUnique(people, ctx)
  return people
}

/**
 * A missed call is matched to a person by the caller's number, compared as the messaging client
 * compares phones (`+91 98000 00001` is `919800000001`), so no two people may share one.
 */
function checkPhonesUnique(people: readonly PersonConfig[], ctx: CheckContext): void {
  const seen: { name: string; phone: string }[] = []
  for (const { name, phone } of people) {
    if (phone === undefined) continue
    const first = seen.find((p) => samePhone(p.phone, phone))
    if (first === undefined) seen.push({ name, phone })
    else
      ctx.report(
        ConfigErrorCodes.DUPLICATE,
        ['people', name, 'phone'],
        `is also person ${first.name}'s phone (a missed call from it could not tell them apart)`,
      )
  }
}

export interface PeopleDirectory {
  /** The people named at `at` (one or a list), each once; unknown names are reported. */
  resolve(written: string | string[] | undefined, at: readonly Segment[]): Located<string>[]
  /** The people named at `at`, in order and as often as named (a rotation's turns); unknown names are reported. */
  resolveEach(written: string | string[] | undefined, at: readonly Segment[]): Located<string>[]
  /**
   * The address of `person` the channel sends to: a phone for SMS and voice, the chat number (else
   * the phone) for chat, the e-mail address for mail. Undefined when there is none (reported at
   * `at`), or when the person or channel is broken (reported where it is written). `role` says how
   * the person comes to be reached when it is not by name (`on call in ops/primary`).
   */
  addressFor(person: string, channel: string, at: readonly Segment[], role?: string): string | undefined
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * `raw` is the `people` section as written: a person declared there with a broken value is not
 * also an unknown name, and an address that failed its own check is not also a missing one.
 */
export function createPeopleDirectory(
  people: readonly PersonConfig[],
  raw: unknown,
  channelTypes: ReadonlyMap<string, ChannelType>,
  ctx: CheckContext,
): PeopleDirectory {
  const written = isMapping(raw) ? raw : {}
  const declared = Object.keys(written)
  const byName = new Map(people.map((p) => [p.name, p]))
  const wrote = (name: string, key: string): boolean => {
    const person = written[name]
    return isMapping(person) && Object.hasOwn(person, key)
  }

  /** Where a problem is reported and how it names the person. */
  interface Asked {
    channel: string
    at: readonly Segment[]
    who: string
  }

  function chatAddress(person: PersonConfig, asked: Asked): string | undefined {
    if (person.chat !== undefined || wrote(person.name, 'chat')) return person.chat
    const { phone } = person
    if (phone === undefined) {
      if (!wrote(person.name, 'phone')) missing(person.name, 'chat number or phone', 'chat', asked)
      return undefined
    }
    if (isChatNumber(phone)) return compactChatNumber(phone)
    const shown = ctx.show(['people', person.name, 'phone'], phone)
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      asked.at,
      `${asked.who} has no chat number and their phone ${shown} cannot be one ` +
        `(it needs the country prefix, like "+919800000001"), needed by chat channel ${asked.channel}`,
    )
    return undefined
  }

  function missing(name: string, what: string, type: ChannelType, asked: Asked): undefined {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      asked.at,
      `${asked.who} has no ${what}, needed by ${type} channel ${asked.channel}`,
    )
    return undefined
  }

  function plain(person: PersonConfig, key: 'phone' | 'email', type: ChannelType, asked: Asked): string | undefined {
    const address = person[key]
    if (address !== undefined || wrote(person.name, key)) return address
    return missing(person.name, key, type, asked)
  }

  return {
    resolve(value, at) {
      const seen = new Set<string>()
      return resolveLocated(value, at, 'person', declared, ctx).filter(
        ({ value: name }) => !seen.has(name) && seen.add(name),
      )
    },
    resolveEach(value, at) {
      return resolveLocated(value, at, 'person', declared, ctx)
    },
    addressFor(name, channel, at, role) {
      const person = byName.get(name)
      const type = channelTypes.get(channel)
      if (person === undefined || type === undefined) return undefined
      const asked = { channel, at, who: role === undefined ? `person ${name}` : `person ${name} (${role})` }
      switch (type) {
        case 'sms':
        case 'voice':
          return plain(person, 'phone', type, asked)
        case 'mail':
          return plain(person, 'email', type, asked)
        case 'chat':
          return chatAddress(person, asked)
      }
    },
  }
}
