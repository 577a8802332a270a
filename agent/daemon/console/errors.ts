// The console's stable error codes, never reused. Most are wire codes: every error answer of the
// console's HTTP API is `{ "error": "<message>", "code": "<one of these>" }`, so a client (the CLI)
// matches on `code`, never on the message. OPTIONS is the one thrown code: a console that cannot be
// built safely (no token, a generated token on a non-loopback address) refuses to start.

import { codedErrorClass } from '../../coded-error'

export const ConsoleErrorCodes = {
  /**
   * 400: the path or query is malformed (bad percent-encoding, a control character, `..`, an id too long
   * or too short, an unknown query parameter).
   */
  BAD_PATH: 'LOGX_CONSOLE_ERR_BAD_PATH',
  /** 400: the body is not JSON, not an object, or a field is missing or wrong; the message names the field. */
  INVALID_BODY: 'LOGX_CONSOLE_ERR_INVALID_BODY',
  /** 401: the request needs `authorization: Bearer <token>` and has none, or a wrong one. */
  UNAUTHORIZED: 'LOGX_CONSOLE_ERR_UNAUTHORIZED',
  /** 401: POST /api/login with a code that is unknown, already used or expired (one answer for all three). */
  LOGIN_REFUSED: 'LOGX_CONSOLE_ERR_LOGIN_REFUSED',
  /** 403: the Host header is not a loopback name while the console listens on loopback (DNS rebinding). */
  FORBIDDEN_HOST: 'LOGX_CONSOLE_ERR_FORBIDDEN_HOST',
  /** 404: no such route, incident or silence. */
  NOT_FOUND: 'LOGX_CONSOLE_ERR_NOT_FOUND',
  /** 405: the method is not served on this path (OPTIONS always: the console does no CORS). */
  METHOD_NOT_ALLOWED: 'LOGX_CONSOLE_ERR_METHOD_NOT_ALLOWED',
  /** 409: an id prefix names several incidents. */
  AMBIGUOUS: 'LOGX_CONSOLE_ERR_AMBIGUOUS',
  /** 409: the action is not possible in the current state (already acknowledged, a config silence...). */
  CONFLICT: 'LOGX_CONSOLE_ERR_CONFLICT',
  /** 413: the body is over the limit (16 KiB). */
  BODY_TOO_LARGE: 'LOGX_CONSOLE_ERR_BODY_TOO_LARGE',
  /** 415: a body that is not `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 'LOGX_CONSOLE_ERR_UNSUPPORTED_MEDIA_TYPE',
  /** 500: the backend threw; the request changed nothing the console knows of. */
  INTERNAL: 'LOGX_CONSOLE_ERR_INTERNAL',
  /** Thrown by createConsoleHandler: the options would make an unsafe console. */
  OPTIONS: 'LOGX_CONSOLE_ERR_OPTIONS',
} as const

export type ConsoleErrorCode = (typeof ConsoleErrorCodes)[keyof typeof ConsoleErrorCodes]

/** The body of every error answer. */
export interface ConsoleErrorBody {
  error: string
  code: ConsoleErrorCode
}

export class ConsoleError extends codedErrorClass<ConsoleErrorCode>('ConsoleError', 'logx.console.error') {}
