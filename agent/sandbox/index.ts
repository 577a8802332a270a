// Public surface of the sandbox.

export { startSandbox, DEFAULT_ACTIVITY_TOKEN, DEFAULT_API_KEY, DEFAULT_LEAD_ACCOUNT } from './server'
export type { Sandbox, SandboxOptions } from './server'
export type { SandboxInfo } from './control-routes'
export { parseFault } from './faults'
export { SANDBOX_MISSED_CALL_NUMBER } from './missed-calls'
export type { Fault, FaultKind, MalformedBody } from './faults'
export { INBOX_KINDS } from './store'
export type { InboxKind, StoredEntry, StoredKind } from './store'
export { SandboxError, SandboxErrorCodes } from './errors'
export type { SandboxErrorCode } from './errors'
