// Every failure of the sandbox itself (not the HTTP errors it serves on purpose) is a SandboxError
// with a stable code. Codes are never reused.

import { pathErrorClass } from '../coded-error'

export const SandboxErrorCodes = {
  /** An option is missing, of the wrong type or out of range; `path` names it. */
  INVALID_OPTION: 'LOGX_SANDBOX_ERR_INVALID_OPTION',
  /** A fault rule is malformed; `path` names the field. */
  INVALID_FAULT: 'LOGX_SANDBOX_ERR_INVALID_FAULT',
  /** The data directory cannot be created or read. */
  DATA_DIR: 'LOGX_SANDBOX_ERR_DATA_DIR',
  /** The server could not listen (port in use, permission). */
  LISTEN: 'LOGX_SANDBOX_ERR_LISTEN',
  /** The host is not loopback and listening there was not allowed (`allowRemote`, `--allow-remote`). */
  REMOTE_HOST: 'LOGX_SANDBOX_ERR_REMOTE_HOST',
} as const

export type SandboxErrorCode = (typeof SandboxErrorCodes)[keyof typeof SandboxErrorCodes]

export class SandboxError extends pathErrorClass<SandboxErrorCode>('SandboxError', 'logx.sandbox.error') {}
