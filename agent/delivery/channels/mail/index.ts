// The mail channel of the delivery path: its request builder and its sender. Re-exports only.
export { buildMailRequests } from './request'
export { sendMail } from './sender'
