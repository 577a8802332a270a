// The voice channel of the delivery path: its request builder and its sender. Re-exports only.
export { buildVoiceRequests } from './request'
export { sendVoice } from './sender'
