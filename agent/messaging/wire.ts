// The wire contract shared by the client and the sandbox. Request bodies follow
// spec/messaging-api.md field for field (including the `senderi_d` spelling). Everything the spec
// marks "not shown" (response envelopes, record fields, paging, errors) is an ASSUMPTION chosen
// here once; agent/messaging/README.md lists each one. Change it here and both sides follow.

/** Every operation of the spec, by the name used in errors, debug events and sandbox fault rules. */
export type OperationName =
  | 'send_sms'
  | 'sms_record'
  | 'send_mail'
  | 'mail_record'
  | 'send_chat'
  | 'chat_record'
  | 'getChatGroup'
  | 'get_instance_id'
  | 'social_search'
  | 'social_record'
  | 'missed_record'
  | 'voice_broadcast'
  | 'obd_record'
  | 'create_lead'
  | 'add_activities'

export type HttpMethod = 'GET' | 'POST'

export interface OperationSpec {
  readonly method: HttpMethod
  /** Value of the `apirequest` query parameter; absent for waba.php and the webhooks. */
  readonly apirequest?: string
  /** Path relative to the API base URL; webhooks use their own absolute URLs instead. */
  readonly path?: string
  /** A send changes state at the far end, so repeating it after an ambiguous failure may duplicate it. */
  readonly sends: boolean
}

export const API_PATH = '/api/v1/'
export const CHAT_SEND_PATH = '/api/v1/waba.php'

export const OPERATIONS: { readonly [K in OperationName]: OperationSpec } = {
  send_sms: { method: 'POST', apirequest: 'send_sms', path: API_PATH, sends: true },
  sms_record: { method: 'GET', apirequest: 'sms_record', path: API_PATH, sends: false },
  send_mail: { method: 'POST', apirequest: 'send_mail', path: API_PATH, sends: true },
  mail_record: { method: 'GET', apirequest: 'mail_record', path: API_PATH, sends: false },
  send_chat: { method: 'POST', path: CHAT_SEND_PATH, sends: true },
  chat_record: { method: 'GET', apirequest: 'chat_record', path: API_PATH, sends: false },
  getChatGroup: { method: 'GET', apirequest: 'getChatGroup', path: API_PATH, sends: false },
  get_instance_id: { method: 'GET', apirequest: 'get_instance_id', path: API_PATH, sends: false },
  social_search: { method: 'GET', apirequest: 'social_search', path: API_PATH, sends: false },
  social_record: { method: 'GET', apirequest: 'social_record', path: API_PATH, sends: false },
  missed_record: { method: 'GET', apirequest: 'missed_record', path: API_PATH, sends: false },
  voice_broadcast: { method: 'POST', apirequest: 'voice_broadcast', path: API_PATH, sends: true },
  obd_record: { method: 'GET', apirequest: 'obd_record', path: API_PATH, sends: false },
  create_lead: { method: 'POST', sends: true },
  add_activities: { method: 'POST', sends: true },
}

/** Operation selected by an `apirequest` value on `/api/v1/`. */
export function operationForApiRequest(apirequest: string): OperationName | undefined {
  for (const [name, spec] of Object.entries(OPERATIONS)) {
    if (spec.apirequest === apirequest) return name as OperationName
  }
  return undefined
}

// ---------------------------------------------------------------- request bodies (from the spec)

export interface WireSmsSendRequest {
  route: string
  senderi_d: string
  message_format: string
  message_type: string
  numbers: number[]
  sms: string
  template_id: string
  smstype: string
  schedule_time: string
}

export interface WireMailSendRequest {
  from: string
  message_format: string
  to: string[]
  subject: string
  message: string
  attachment: string
  smstype: string
  schedule_time: string
}

export interface WireChatSendRequest {
  template_id: number
  number: string
  variable: string[]
  attachment: string
}

export interface WireVoiceBroadcastRequest {
  receiver: string
  attachment: string
  schedule_time: string
}

export interface WireChatGroupQueryBody {
  name?: string
  keywords?: string
  caption?: string
  media?: unknown[]
  instance_id?: string
  type?: number
  template?: number
}

export interface WireLeadRequest {
  name: string
  email?: string
  display_name?: string
  phone?: string
  other_fields?: Record<string, string>
}

export const ACTIVITY_TYPES = ['MEETING', 'NOTE', 'MESSAGE', 'PHONECALL'] as const
export type ActivityType = (typeof ACTIVITY_TYPES)[number]

export interface WireActivity {
  title: string
  activity_date: number
  activity_type: ActivityType
  notes?: string
}

export interface WireActivityRequest {
  lead_id: number
  activities: WireActivity[]
}

// ---------------------------------------------------------------- responses (ASSUMED)

/** Lead creation: the one response body the spec shows. */
export interface WireLeadCreated {
  success: boolean
  lead_id: string
}

/** ASSUMED: every accepted send answers 200 with this envelope. */
export interface WireSendAccepted {
  status: 'success'
  message: string
  data: { id: string; status: RecordStatus }
}

/** ASSUMED: every failure answers with this body; `field` names the offending request field. */
export interface WireErrorBody {
  status: 'error'
  error: string
  field?: string
}

/** ASSUMED: every listing (records, instance ids, search results) answers with this page envelope. */
export interface WirePage<T> {
  status: 'success'
  data: T[]
  /** 1-based page number that was served. */
  page: number
  per_page: number
  /** Number of records the listing holds after `limit` was applied. */
  total: number
}

/** ASSUMED: chat groups come back unpaged. */
export interface WireChatGroupList {
  status: 'success'
  data: WireChatGroup[]
}

/** ASSUMED: the spec says records carry a delivery status but names no states. */
export type RecordStatus = 'queued' | 'scheduled' | 'delivered' | 'failed'

export interface WireRecordBase {
  id: string
  /** ISO-8601 time the service accepted the request. */
  created_at: string
  status: RecordStatus
}

export type WireSmsRecord = WireRecordBase & WireSmsSendRequest
export type WireMailRecord = WireRecordBase & WireMailSendRequest
export type WireChatRecord = WireRecordBase & WireChatSendRequest
export type WireObdRecord = WireRecordBase & WireVoiceBroadcastRequest

export interface WireMissedCallRecord {
  id: string
  created_at: string
  caller: string
  called: string
}

export interface WireInstance {
  instance_id: string
  name: string
  status: string
}

export interface WireChatGroup {
  id: string
  name: string
  instance_id: string
  participants: number
}

export interface WireSocialProfile {
  id: string
  name: string
  network: string
  url: string
}

export interface WireSocialRecord {
  id: string
  created_at: string
  keyword: string
  page: number
  results: number
}

/** ASSUMED defaults and bounds of the listing query parameters (the spec shows none). */
export const PAGING = { defaultPerPage: 20, maxPerPage: 100 } as const
