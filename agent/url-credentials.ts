// Credentials written into a URL: whatever prints the URL (validate, the start banner, an error, a
// journaled failure) would print them too, so a URL that carries one is refused where it is
// configured (config/values/api-url.ts, the Redis URL's check) and shown without them wherever it
// is printed (the messaging client's errors, the banner). Pure. Rules:
// 1. A password in the URL (`https://user:pass@host/`) is a credential.
// 2. A user name alone (`https://token@host/`) is one too: tokens are often written there.
// 3. A query parameter named like a credential is one, whatever its value; names are compared
//    case-insensitively, with `-` read as `_` (`apiKey`, `API-KEY` and `api_key` alike).
// 4. Checked in that order, the first found is the one named (a message names one fix at a time).
// 5. Shown for people: user name and password dropped, a credential parameter's value masked;
//    everything else (scheme, host, port, path, other parameters) kept, so the URL stays recognizable.

/** Query parameter names that carry credentials (rule 3), lower case, `_` for `-`. */
export const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set([
  'apikey',
  'api_key',
  'key',
  'token',
  'access_token',
  'secret',
  'password',
  'passwd',
  'sig',
  'signature',
])

export type UrlCredential = { kind: 'password' } | { kind: 'username' } | { kind: 'query'; name: string }

const MASK = '[redacted]'

/** Rule 3. */
export const isCredentialParam = (name: string): boolean => CREDENTIAL_PARAMS.has(name.toLowerCase().replace(/-/g, '_'))

/** Rules 1 to 4: the first credential the URL carries, or undefined. */
export function urlCredential(url: URL): UrlCredential | undefined {
  if (url.password !== '') return { kind: 'password' }
  if (url.username !== '') return { kind: 'username' }
  for (const name of url.searchParams.keys()) if (isCredentialParam(name)) return { kind: 'query', name }
  return undefined
}

/** Rule 5: the URL as a message or a banner may print it. */
export function displayUrl(url: URL): string {
  const shown = new URL(url.toString())
  shown.username = ''
  shown.password = ''
  if (![...shown.searchParams.keys()].some(isCredentialParam)) return shown.toString()
  // Rebuilt by hand: URLSearchParams would percent-encode the mask's brackets.
  const query = [...shown.searchParams].map(([name, value]) =>
    isCredentialParam(name) ? `${encodeURIComponent(name)}=${MASK}` : new URLSearchParams([[name, value]]).toString(),
  )
  shown.search = ''
  return `${shown.toString().replace(/#.*$/, '')}?${query.join('&')}${shown.hash}`
}

/** `displayUrl` of a string: a text that is no URL is not shown at all (it may be a secret mistyped). */
export function displayUrlText(text: string): string {
  try {
    return displayUrl(new URL(text))
  } catch {
    return '(not a URL)'
  }
}

/** The credential values a URL carries (decoded and as written), for a redactor to mask if echoed. */
export function urlSecretValues(url: URL): string[] {
  // The user and password are kept percent-encoded by URL; query values come decoded.
  const values: string[] = []
  for (const written of [url.username, url.password]) {
    values.push(written)
    try {
      values.push(decodeURIComponent(written))
    } catch {
      // Not valid percent-encoding: the text as written is all there is.
    }
  }
  for (const [name, value] of url.searchParams)
    if (isCredentialParam(name)) values.push(value, encodeURIComponent(value))
  return [...new Set(values)].filter((v) => v !== '')
}
