// The agent's web console and its HTTP API, mounted on the metrics server (see README.md).
export { createConsoleHandler, MIN_TOKEN_LENGTH, type ConsoleHandler, type ConsoleOptions } from './handler'
export { ConsoleError, ConsoleErrorCodes, type ConsoleErrorBody, type ConsoleErrorCode } from './errors'
export type * from './types'
