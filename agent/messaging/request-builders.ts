// Pure mapping from the readable TypeScript inputs to the wire bodies of the spec. Nothing here
// validates (validate.ts does, on the wire body, so client and sandbox judge the same thing) and
// nothing does I/O.

import type {
  ActivityType,
  WireActivityRequest,
  WireChatGroupQueryBody,
  WireChatSendRequest,
  WireLeadRequest,
  WireMailSendRequest,
  WireSmsSendRequest,
  WireVoiceBroadcastRequest,
} from './wire'

/** ASSUMED: a Date for `schedule_time` is sent as `YYYY-MM-DD HH:mm:ss` in UTC (the spec shows no format). */
export function formatScheduleTime(value: string | Date | undefined): string {
  if (value === undefined) return ''
  if (typeof value === 'string') return value
  const iso = value.toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}

export interface SendSmsInput {
  /** Recipients; strings like "+91 98765 43210" are reduced to their digits. */
  numbers: readonly (number | string)[]
  text: string
  senderId?: string
  route?: string
  templateId?: string
  /** Default `groups`, the spec's sample value. */
  messageFormat?: string
  /** Default `Text`, the spec's sample value. */
  messageType?: string
  /** Default `flash`, the only value the spec shows; set it if your account uses another. */
  smsType?: string
  /** Omit to send now. */
  scheduleTime?: string | Date
}

function toPhoneInteger(n: number | string): number {
  if (typeof n === 'number') return n
  const digits = n.replace(/[\s\-()+.]/g, '')
  return /^\d+$/.test(digits) ? Number(digits) : Number.NaN
}

export function buildSmsSend(input: SendSmsInput): WireSmsSendRequest {
  return {
    route: input.route ?? '',
    senderi_d: input.senderId ?? '',
    message_format: input.messageFormat ?? 'groups',
    message_type: input.messageType ?? 'Text',
    numbers: Array.isArray(input.numbers) ? input.numbers.map(toPhoneInteger) : (input.numbers as never),
    sms: input.text,
    template_id: input.templateId ?? '',
    smstype: input.smsType ?? 'flash',
    schedule_time: formatScheduleTime(input.scheduleTime),
  }
}

export interface SendMailInput {
  from: string
  to: string | readonly string[]
  subject: string
  /** Body; may contain markup. */
  message: string
  attachment?: string
  messageFormat?: string
  smsType?: string
  scheduleTime?: string | Date
}

export function buildMailSend(input: SendMailInput): WireMailSendRequest {
  return {
    from: input.from,
    message_format: input.messageFormat ?? 'groups',
    to: typeof input.to === 'string' ? [input.to] : [...input.to],
    subject: input.subject,
    message: input.message,
    attachment: input.attachment ?? '',
    smstype: input.smsType ?? 'flash',
    schedule_time: formatScheduleTime(input.scheduleTime),
  }
}

export interface SendChatInput {
  templateId: number
  /** Recipient with country prefix. */
  number: string
  variables?: readonly string[]
  /** URL of a file to attach. */
  attachment?: string
}

export function buildChatSend(input: SendChatInput): WireChatSendRequest {
  return {
    template_id: input.templateId,
    number: input.number,
    variable: input.variables === undefined ? [] : [...input.variables],
    attachment: input.attachment ?? '',
  }
}

export interface VoiceReceiver {
  label: string
  number: string
}

export interface VoiceBroadcastInput {
  /** Structured receivers, or the receiver text exactly as the service expects it. */
  receivers: readonly VoiceReceiver[] | string
  /** Audio file names, or the attachment text exactly as the service expects it. */
  audioFiles: readonly string[] | string
  scheduleTime?: string | Date
}

/**
 * ASSUMED: the spec says `receiver` is "text holding a list of pairs of a label and a phone number"
 * and `attachment` "text holding a list of audio file names" without showing the encoding; we send
 * JSON text (`[["ops","+15550100"]]`, `["alert.mp3"]`). Pass strings to send another encoding verbatim.
 */
export function buildVoiceBroadcast(input: VoiceBroadcastInput): WireVoiceBroadcastRequest {
  return {
    receiver:
      typeof input.receivers === 'string'
        ? input.receivers
        : input.receivers.length === 0
          ? ''
          : JSON.stringify(input.receivers.map((r) => [r.label, r.number])),
    attachment:
      typeof input.audioFiles === 'string'
        ? input.audioFiles
        : input.audioFiles.length === 0
          ? ''
          : JSON.stringify(input.audioFiles),
    schedule_time: formatScheduleTime(input.scheduleTime),
  }
}

export interface ChatGroupQuery {
  instanceId: string
  /** The optional JSON body one sample of the spec sends with this GET. */
  body?: WireChatGroupQueryBody
}

export interface CreateLeadInput {
  name: string
  email?: string
  displayName?: string
  phone?: string
  otherFields?: Readonly<Record<string, string>>
}

export function buildLead(input: CreateLeadInput): WireLeadRequest {
  const body: WireLeadRequest = { name: input.name }
  if (input.email !== undefined) body.email = input.email
  if (input.displayName !== undefined) body.display_name = input.displayName
  if (input.phone !== undefined) body.phone = input.phone
  if (input.otherFields !== undefined) body.other_fields = { ...input.otherFields }
  return body
}

export interface ActivityInput {
  title: string
  /** ASSUMED: a Date is sent as Unix seconds (the spec says only "timestamp", int). */
  date: number | Date
  type: ActivityType
  notes?: string
}

export interface AddActivitiesInput {
  /** The `lead_id` lead creation returned (a string of digits there; an int on this call). */
  leadId: number | string
  activities: readonly ActivityInput[]
}

export function buildActivities(input: AddActivitiesInput): WireActivityRequest {
  const leadId =
    typeof input.leadId === 'number' ? input.leadId : /^\d+$/.test(input.leadId) ? Number(input.leadId) : Number.NaN
  return {
    lead_id: leadId,
    activities: input.activities.map((a) => {
      const out: WireActivityRequest['activities'][number] = {
        title: a.title,
        activity_date: a.date instanceof Date ? Math.floor(a.date.getTime() / 1000) : a.date,
        activity_type: a.type,
      }
      if (a.notes !== undefined) out.notes = a.notes
      return out
    }),
  }
}
