// The chat channel of the delivery path: its request builder and its sender. Re-exports only.
export { buildChatRequests } from './request'
export { sendChat } from './sender'
