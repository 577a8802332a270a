// Errors of `logx-agent init`, with stable codes never reused. The command prints `message` and exits 2
// (a bad command line or an answer it cannot use) or 1 (the file cannot be written).

import { codedErrorClass } from '../../coded-error'

export const InitErrorCodes = {
  /** A flag or an answer is not usable (a bad number, an unknown --api, a real API without its URL). */
  ANSWER: 'LOGX_INIT_ERR_ANSWER',
  /** The config file exists and --force was not given. */
  EXISTS: 'LOGX_INIT_ERR_EXISTS',
  /** Not a terminal and no --yes: nobody to ask. */
  NO_TTY: 'LOGX_INIT_ERR_NO_TTY',
  /** What init rendered does not pass the validator (a bug in init; the file is not written). */
  INVALID: 'LOGX_INIT_ERR_INVALID',
} as const

export type InitErrorCode = (typeof InitErrorCodes)[keyof typeof InitErrorCodes]

export class InitError extends codedErrorClass<InitErrorCode>('InitError', 'logx.init.error') {}
