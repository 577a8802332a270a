// console: the agent's web console and its HTTP API, served on metrics.listen. Anyone who reaches
// it can acknowledge and silence pages, so beyond loopback it needs a token.
import type { CheckContext } from '../load/check-context'
import { ConfigErrorCodes } from '../errors'
import { createPresence } from './messaging'
import { createSecret } from '../values/secret'
import type { ConsoleConfig, ListenAddress } from '../types'
import { isLoopbackHost } from '../values/value-checks'
import type { ConsoleInput } from '../shape/written-types'

/** A token shorter than this is refused: a guessable token is no protection (the console refuses it too). */
export const MIN_CONSOLE_TOKEN_LENGTH = 8

/** `raw`: the console section as written (a token whose value failed is not also missing). */
export function normalizeConsole(
  written: ConsoleInput | undefined,
  raw: unknown,
  listen: ListenAddress | undefined,
  metricsWritten: boolean,
  ctx: CheckContext,
): ConsoleConfig {
  const enabled = written?.enabled ?? true
  const token = written?.token === undefined ? undefined : createSecret(written.token)
  const tokenWritten = createPresence(raw)('token')
  if (token !== undefined && token.reveal().length < MIN_CONSOLE_TOKEN_LENGTH) {
    // Pointed at the key it was written under; the value is a secret and is not shown.
    const key = typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'token_file') ? 'token_file' : 'token'
    ctx.report(
      ConfigErrorCodes.VALUE,
      ['console', key],
      `must be at least ${MIN_CONSOLE_TOKEN_LENGTH} characters (a short token is easily guessed)`,
    )
  }
  if (enabled && typeof raw === 'object' && raw !== null && !metricsWritten) {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      ['console'],
      'is served on metrics.listen, which is not set: ' +
        'add metrics: { listen: 127.0.0.1:9464 } (or console: { enabled: false })',
      'key',
    )
  }
  if (enabled && !tokenWritten && listen !== undefined && !isLoopbackHost(listen.host)) {
    ctx.report(
      ConfigErrorCodes.CONFLICT,
      ['metrics', 'listen'],
      'is not a loopback address, so the console served on it needs a token: ' +
        'set console.token (or console.token_file), or console.enabled: false',
    )
  }
  return { enabled, token }
}
