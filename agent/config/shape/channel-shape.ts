// The shape of a channel: one variant per type (sms, chat, mail, voice, incident), with the keys
// every channel shares. A transport target's own keys are a variant's (target-options.ts).
import type { TaggedShape } from './shape'
import { checkChatNumber, checkEmail, checkPhone } from '../values/value-checks'
import {
  field,
  required,
  string,
  url,
  template,
  names,
  object,
  withOneOf,
  kindTemplates,
  oncallRef,
  activeHours,
} from './shape-parts'
import { time } from './rule-shape'

/** A channel's `people`: their addresses join its recipients, so it needs recipients, people or a schedule. */
export const channelPeople = field(
  names('person names'),
  'people (from `people`) reached on this channel: the address the channel needs joins the recipients',
)
export const recipientsOrPeople = (recipients: string): readonly string[] => [recipients, 'people', 'oncall']

export const channelCommon = {
  max_per_hour: field(
    { kind: 'integer', min: 1 },
    'budget: most messages per sliding hour; the rest fold into one digest',
  ),
  concurrency: field(
    { kind: 'integer', min: 1, max: 64 },
    "requests in flight at once on this channel; one incident's messages still go one at a time, in order",
    { default: 4 },
  ),
  oncall: field(
    oncallRef,
    "schedule (or schedule/layer) whose person on call, when a notice is sent, is this channel's recipient, " +
      'instead of numbers or people',
  ),
  active_hours: activeHours('this channel'),
}

export const channelShape: TaggedShape = {
  kind: 'tagged',
  tag: 'type',
  variants: {
    sms: withOneOf(
      recipientsOrPeople('numbers'),
      object({
        numbers: field(
          { kind: 'list', items: string({ check: checkPhone }), minItems: 1, single: true },
          "recipients' phone numbers",
        ),
        people: channelPeople,
        sender_id: field(string(), 'approved sender id'),
        route: field(string(), 'SMS route of the messaging API'),
        template_id: field(string(), 'registered (DLT) template id'),
        template: field(kindTemplates('text'), 'text template, or one per notice kind', {
          default: '{{status}} {{title}} ({{count}}x, {{rule}})',
        }),
        max_length: field({ kind: 'integer', min: 1 }, 'longest text sent; longer texts are cut with "…"', {
          default: 160,
        }),
        ...channelCommon,
      }),
    ),
    chat: withOneOf(
      recipientsOrPeople('numbers'),
      object({
        numbers: field(
          { kind: 'list', items: string({ check: checkChatNumber }), minItems: 1, single: true },
          'recipients, with country prefix',
        ),
        people: channelPeople,
        template_id: required({ kind: 'integer', min: 0 }, 'approved chat template id'),
        variables: field({ kind: 'list', items: template }, "templates of the chat template's variables", {
          default: ['{{status}}', '{{title}}', '{{count}}', '{{rule}}'],
        }),
        attachment: field(url, 'URL of a file attached to every message'),
        ...channelCommon,
      }),
    ),
    mail: withOneOf(
      recipientsOrPeople('to'),
      object({
        from: required(string({ check: checkEmail, json: { format: 'email' } }), 'sender address'),
        to: field(
          { kind: 'list', items: string({ check: checkEmail, json: { format: 'email' } }), minItems: 1, single: true },
          'recipient addresses',
        ),
        people: channelPeople,
        subject: field(kindTemplates('subject'), 'subject template, or one per notice kind', {
          default: '[{{status}}] {{title}}',
        }),
        format: field(
          { kind: 'enum', values: ['html', 'text'] },
          'body sent: the HTML rendering or the plain-text one',
          { default: 'html' },
        ),
        ...channelCommon,
      }),
    ),
    voice: withOneOf(
      recipientsOrPeople('receivers'),
      object({
        receivers: field(
          {
            kind: 'list',
            minItems: 1,
            items: object({
              label: required(string(), 'who is called (shown in the call log)'),
              number: required(string({ check: checkPhone }), 'phone number'),
            }),
          },
          'who is called',
        ),
        people: channelPeople,
        audio: required(
          {
            kind: 'either',
            options: [
              { kind: 'list', items: string(), minItems: 1 },
              object({
                firing: required(
                  { kind: 'list', items: string(), minItems: 1 },
                  'played for firing, repeat and escalated notices',
                ),
                resolved: field({ kind: 'list', items: string(), minItems: 1 }, 'played for resolved notices'),
                digest: field({ kind: 'list', items: string(), minItems: 1 }, 'played for digests'),
              }),
            ],
          },
          'audio files played: one list, or one per notice kind',
        ),
        ...channelCommon,
      }),
    ),
  },
}
