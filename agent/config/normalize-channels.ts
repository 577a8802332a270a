// channels: name -> channel, a discriminated union on `type`. Names are the mapping's keys, so they
// are unique by construction (a repeated key is a YAML error). The one channel normalizer: a
// transport target's channel options (named after its type) come through here too.
import { DEFAULT_SMS_MAX_LENGTH } from '../../alerts'
import { compactChatNumber } from '../messaging/validate'
import type { ChannelConfig, KindTemplates } from './types'
import { listItems } from './written-list'
import type { ChannelInput, KindTemplatesInput } from './written-types'

const kinds = (written: string | KindTemplatesInput | undefined): KindTemplates => {
  if (typeof written === 'string') return { firing: written, resolved: undefined, digest: undefined }
  return { firing: written?.firing, resolved: written?.resolved, digest: written?.digest }
}

const strings = (value: string | string[] | undefined): string[] => listItems(value, []).map(({ value: v }) => v)

export function normalizeChannel(name: string, c: ChannelInput): ChannelConfig {
  const common = { name, maxPerHour: c.max_per_hour }
  switch (c.type) {
    case 'sms':
      return {
        ...common,
        type: 'sms',
        numbers: strings(c.numbers),
        senderId: c.sender_id,
        route: c.route,
        templateId: c.template_id,
        template: kinds(c.template),
        maxLength: c.max_length ?? DEFAULT_SMS_MAX_LENGTH,
      }
    case 'chat':
      // Sent as the API takes them: `+91 98000 00001` goes out as `+919800000001`.
      return { ...common, type: 'chat', numbers: strings(c.numbers).map(compactChatNumber), templateId: c.template_id, variables: c.variables, attachment: c.attachment }
    case 'mail':
      return { ...common, type: 'mail', from: c.from, to: strings(c.to), subject: kinds(c.subject), format: c.format ?? 'html' }
    case 'voice': {
      const audio = c.audio ?? []
      const byKind = Array.isArray(audio) ? { firing: audio, resolved: audio, digest: audio } : audio
      const firing = byKind.firing ?? []
      return {
        ...common,
        type: 'voice',
        receivers: (c.receivers ?? []).filter((r) => r !== undefined),
        audio: { firing, resolved: byKind.resolved ?? firing, digest: byKind.digest ?? firing },
      }
    }
  }
}

export function normalizeChannels(written: Record<string, ChannelInput> | undefined): ChannelConfig[] {
  return Object.entries(written ?? {}).map(([name, channel]) => normalizeChannel(name, channel))
}
