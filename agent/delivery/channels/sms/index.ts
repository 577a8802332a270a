// The sms channel of the delivery path: its request builder and its sender. Re-exports only.
export { buildSmsRequests } from './request'
export { sendSms } from './sender'
