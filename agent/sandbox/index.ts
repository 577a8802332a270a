// Public surface of the sandbox: re-exports only (the types live in types.ts).

export { startSandbox } from './server'
export { DEFAULT_ACTIVITY_TOKEN, DEFAULT_API_KEY, DEFAULT_LEAD_ACCOUNT } from './sandbox-options'
export { parseFault } from './faults'
export { SANDBOX_MISSED_CALL_NUMBER } from './missed-calls'
export type { Fault, FaultKind, MalformedBody } from './faults'
export { INBOX_KINDS } from './stored-kinds'
export type { InboxKind, StoredKind } from './stored-kinds'
export type { Sandbox, SandboxInfo, SandboxOptions, StoredEntry } from './types'
export { SandboxError, SandboxErrorCodes } from './errors'
export type { SandboxErrorCode } from './errors'
