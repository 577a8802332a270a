// channels: name -> channel, a discriminated union on `type`. Names are the mapping's keys, so they
// are unique by construction (a repeated key is a YAML error). The one channel normalizer: a
// transport target's channel options (named after its type) come through here too, without people.
// A channel's people join its recipients here, so what sends never looks people up. A channel with
// `oncall` has no recipients of its own: whoever is on call when a notice is sent is.
import { DEFAULT_SMS_MAX_LENGTH } from '../../../alerts'
import { compactChatNumber, samePhone } from '../../messaging/validate'
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import { normalizeActiveHours } from './active-hours'
import type { PeopleDirectory } from './people'
import type { ScheduleDirectory } from './schedules'
import type { ChannelConfig, KindTemplates, OncallRef } from '../types'
import { listItems } from '../shape/written-list'
import type { ChannelInput, KindTemplatesInput } from '../shape/written-types'

const kinds = (written: string | KindTemplatesInput | undefined): KindTemplates => {
  if (typeof written === 'string') return { firing: written, resolved: undefined, digest: undefined }
  return { firing: written?.firing, resolved: written?.resolved, digest: written?.digest }
}

const strings = (value: string | string[] | undefined): string[] => listItems(value, []).map(({ value: v }) => v)

/** Each recipient once, the first spelling kept; `same` says when two are one. Recipients are few. */
function unique<T>(items: readonly T[], same: (a: T, b: T) => boolean): T[] {
  const kept: T[] = []
  for (const item of items) if (!kept.some((k) => same(k, item))) kept.push(item)
  return kept
}

const sameText = (a: string, b: string): boolean => a === b

interface Reached {
  /** The people named, known ones each once. */
  names: string[]
  /** Those with the address this channel needs, and that address. */
  addresses: { person: string; address: string }[]
}

function reach(name: string, c: ChannelInput, people: PeopleDirectory | undefined): Reached {
  if (people === undefined) return { names: [], addresses: [] }
  const listed = people.resolve(c.people, ['channels', name, 'people'])
  const addresses = listed.flatMap(({ value: person, path }) => {
    const address = people.addressFor(person, name, path)
    return address === undefined ? [] : [{ person, address }]
  })
  return { names: listed.map(({ value }) => value), addresses }
}

/** What the YAML's channels name: its people and schedules (a transport target has neither). */
export interface ChannelScope {
  people: PeopleDirectory
  schedules: ScheduleDirectory
  ctx: CheckContext
}

const RECIPIENT_KEYS = ['numbers', 'to', 'receivers', 'people'] as const

/**
 * The schedule a channel reaches, whose people need the channel's address. Recipients beside it
 * are refused: the person on call replaces a notice's recipients, so they would never be sent to.
 */
function oncallOf(name: string, c: ChannelInput, scope: ChannelScope | undefined): OncallRef | undefined {
  if (scope === undefined || c.oncall === undefined) return undefined
  const at = ['channels', name]
  const given = RECIPIENT_KEYS.filter((key) => Object.hasOwn(c, key))
  if (given.length > 0) {
    scope.ctx.report(
      ConfigErrorCodes.CONFLICT,
      [...at, 'oncall'],
      `give oncall or recipients (${given.join(', ')}), not both: the person on call is the channel's only recipient`,
      'key',
    )
  }
  const ref = scope.schedules.resolve(c.oncall, [...at, 'oncall'])
  if (ref !== undefined) scope.schedules.checkReach(ref, name, [...at, 'oncall'])
  return ref
}

/** `scope`: the YAML's people and schedules (a transport target has none). */
export function normalizeChannel(name: string, c: ChannelInput, scope?: ChannelScope): ChannelConfig {
  const reached = reach(name, c, scope?.people)
  const common = {
    name,
    maxPerHour: c.max_per_hour,
    concurrency: c.concurrency,
    people: reached.names,
    oncall: oncallOf(name, c, scope),
    activeHours: normalizeActiveHours(c.active_hours),
  }
  const addresses = reached.addresses.map(({ address }) => address)
  switch (c.type) {
    case 'sms':
      return {
        ...common,
        type: 'sms',
        // `+91 98000 00001` and `919800000001` ring one phone (the messaging client's comparison).
        numbers: unique([...strings(c.numbers), ...addresses], samePhone),
        senderId: c.sender_id,
        route: c.route,
        templateId: c.template_id,
        template: kinds(c.template),
        maxLength: c.max_length ?? DEFAULT_SMS_MAX_LENGTH,
      }
    case 'chat':
      // Sent as the API takes them: `+91 98000 00001` goes out as `+919800000001`.
      return {
        ...common,
        type: 'chat',
        numbers: unique([...strings(c.numbers).map(compactChatNumber), ...addresses], sameText),
        templateId: c.template_id,
        variables: c.variables,
        attachment: c.attachment,
      }
    case 'mail':
      return {
        ...common,
        type: 'mail',
        from: c.from,
        to: unique([...strings(c.to), ...addresses], (a, b) => a.toLowerCase() === b.toLowerCase()),
        subject: kinds(c.subject),
        format: c.format ?? 'html',
      }
    case 'voice': {
      const audio = c.audio ?? []
      const byKind = Array.isArray(audio) ? { firing: audio, resolved: audio, digest: audio } : audio
      const firing = byKind.firing ?? []
      return {
        ...common,
        type: 'voice',
        receivers: unique(
          [
            ...(c.receivers ?? []).filter((r) => r !== undefined),
            ...reached.addresses.map(({ person, address }) => ({ label: person, number: address })),
          ],
          // A receiver whose number failed its check (reported) is no one's duplicate.
          (a, b) => a.number !== undefined && b.number !== undefined && samePhone(a.number, b.number),
        ),
        audio: { firing, resolved: byKind.resolved ?? firing, digest: byKind.digest ?? firing },
      }
    }
  }
}

export function normalizeChannels(
  written: Record<string, ChannelInput> | undefined,
  scope: ChannelScope,
): ChannelConfig[] {
  return Object.entries(written ?? {}).map(([name, channel]) => normalizeChannel(name, channel, scope))
}
