// Public surface of the channels: one folder per channel type (its request builder and its sender),
// the one table of them, and whom a message goes to. Re-exports only.
export { buildChannelRequests, isChannelKind, sendChannelRequest } from './channel-table'
export { addressed, type PeopleDirectory } from './recipients'
export type * from './types'
