// Secrets (API key, activity token, the per-account lead webhook path) must never leave the client
// in an error message, a raw body or a debug event, even when the far end echoes them back.
import { displayUrl } from '../url-credentials'

export type Redactor = (text: string) => string

const MASK = '[redacted]'

/** Replaces every occurrence of each non-empty secret. Short secrets are still masked: safety first. */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0)
  // Longest first so a secret containing another is masked whole.
  list.sort((a, b) => b.length - a.length)
  if (list.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const secret of list) out = out.split(secret).join(MASK)
    return out
  }
}

/**
 * A webhook URL is itself a credential (it is unique to the account), so only its origin is shown.
 * API URLs keep their path and query (the key travels in a header), but never a user, a password or
 * a credential parameter that a base URL given in code may still carry (the config refuses them).
 */
export function describeUrl(url: URL, isSecretUrl: boolean): string {
  return isSecretUrl ? `${url.origin}/${MASK}` : displayUrl(url)
}

export const MAX_RAW_BODY = 4096

export function clipBody(text: string): string {
  return text.length > MAX_RAW_BODY
    ? `${text.slice(0, MAX_RAW_BODY)}...[${text.length - MAX_RAW_BODY} more chars]`
    : text
}
