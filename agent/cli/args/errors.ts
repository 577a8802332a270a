// Why a command line was refused, with stable codes, never reused or renamed. The message names the
// option or argument (`--port "abc": expected a number`); `path` is the command it was given to.

import { pathErrorClass } from '../../coded-error'

export const UsageErrorCodes = {
  /** The first word is no command (nor a subcommand of the command before it). */
  UNKNOWN_COMMAND: 'LOGX_CLI_ERR_UNKNOWN_COMMAND',
  /** An option the command does not declare. */
  UNKNOWN_OPTION: 'LOGX_CLI_ERR_UNKNOWN_OPTION',
  /** A string or number option without its value, or one whose value looks like another option. */
  MISSING_VALUE: 'LOGX_CLI_ERR_MISSING_VALUE',
  /** A value the option's type does not take: a number that is none, a value given to a boolean. */
  BAD_VALUE: 'LOGX_CLI_ERR_BAD_VALUE',
  /** An option that is not repeatable, given twice. */
  REPEATED_OPTION: 'LOGX_CLI_ERR_REPEATED_OPTION',
  /** A required (or variadic) argument is absent. */
  MISSING_ARGUMENT: 'LOGX_CLI_ERR_MISSING_ARGUMENT',
  /** More arguments than the command declares. */
  UNEXPECTED_ARGUMENT: 'LOGX_CLI_ERR_UNEXPECTED_ARGUMENT',
} as const

export type UsageErrorCode = (typeof UsageErrorCodes)[keyof typeof UsageErrorCodes]

export class UsageError extends pathErrorClass<UsageErrorCode>('UsageError', 'logx.cli.usage-error') {}
