// `messaging.base_url`: an http(s) URL that carries no credential (agent/url-credentials.ts says what
// one is). The API key travels in a header, so a key in the URL is only ever a leak.
import { scrubText, usableSecrets } from '../../../alerts'
import { displayUrlText, urlCredential } from '../../url-credentials'
import type { Secret } from './secret'

/**
 * The messaging API's base URL, an http(s) URL without credentials; `keyAt` names where the key
 * belongs instead. No message quotes the value: it may hold the very secret refused.
 */
export function apiUrlProblem(value: string, keyAt: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'expected an http(s) URL like https://api.example.com/'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `expected an http(s) URL, not ${url.protocol}//`
  const credential = urlCredential(url)
  if (credential === undefined) return undefined
  const what =
    credential.kind === 'password'
      ? 'a password'
      : credential.kind === 'username'
        ? 'a user name'
        : `the credential query parameter ${JSON.stringify(credential.name)}`
  return (
    `must not hold ${what} (whoever reads the config or the agent's output would have it): ` +
    `the messaging API takes its key from ${keyAt}, sent in a header`
  )
}

/** `messaging.base_url`'s check; the shape gives it a code, so the checker appends no value either. */
export const checkApiBaseUrl = (value: string): string | undefined =>
  apiUrlProblem(value, 'messaging.api_key (or messaging.api_key_file)')

/**
 * The API's base URL as validate and the start banner print it: without credentials, and with every
 * configured secret masked (a key pasted into the path is still a key).
 */
export function showApiUrl(baseUrl: string, secrets: readonly Secret[]): string {
  return scrubText(displayUrlText(baseUrl), usableSecrets(secrets.map((s) => s.reveal())))
}
