// What `logx-agent init` writes comes from three places, in this order: a flag, else an answer to a
// prompt (on a terminal, without --yes), else a default. Every value is checked by the config's own
// checks (one grammar for names, numbers and addresses), and a bad answer is asked again; a bad flag
// is an InitError naming the flag.
import { checkEmail, checkName, checkPhone, checkUrl } from '../../config/values/value-checks'
import type { DetectedSource } from './detect-machine'
import { InitError, InitErrorCodes } from './errors'
import type { ApiAnswer, ApiKeySource, InitAnswers } from './render-config'

export interface InitFlags {
  person?: string | undefined
  phone?: string | undefined
  email?: string | undefined
  mailFrom?: string | undefined
  /** `sandbox` or `real`. */
  api?: string | undefined
  baseUrl?: string | undefined
  apiKeyFile?: string | undefined
  apiKeyEnv?: string | undefined
  missedCallNumber?: string | undefined
  /** Detected sources left out, by name (`pm2-api`) or kind (`journald`, `docker`, `pm2`...). */
  skip?: readonly string[] | undefined
}

/** Asks one question; resolves with the answer as typed (trimmed), '' for none. */
export type Ask = (question: string) => Promise<string>

export const DEFAULT_PERSON = 'oncall'
export const DEFAULT_KEY_ENV = 'LOGX_API_KEY'
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

type Check = (value: string) => string | undefined

const checkEnvName: Check = (value) => (ENV_NAME.test(value) ? undefined : 'expected a variable name like LOGX_API_KEY')

function flagValue(flag: string, value: string, check: Check): string {
  const problem = check(value)
  if (problem !== undefined)
    throw new InitError(InitErrorCodes.ANSWER, `--${flag} ${JSON.stringify(value)}: ${problem}`)
  return value
}

/** One value: the flag, else the prompt (asked again until it passes), else the fallback. */
async function resolve(
  ask: Ask | undefined,
  flag: { name: string; value: string | undefined },
  question: string,
  check: Check,
  fallback: string | undefined,
): Promise<string | undefined> {
  if (flag.value !== undefined) return flagValue(flag.name, flag.value, check)
  if (ask === undefined) return fallback
  const shown = fallback === undefined ? ' (blank: none)' : ` [${fallback}]`
  let note = ''
  for (;;) {
    const answer = await ask(`${note}${question}${shown}: `)
    if (answer === '') return fallback
    const problem = check(answer)
    if (problem === undefined) return answer
    note = `  ${JSON.stringify(answer)}: ${problem}\n`
  }
}

async function keepSources(detected: readonly DetectedSource[], flags: InitFlags, ask: Ask | undefined) {
  const skip = new Set(flags.skip ?? [])
  const kept: DetectedSource[] = []
  for (const found of detected) {
    if (skip.has(found.name) || skip.has(found.kind)) continue
    const where = found.paths.length > 0 ? found.paths.join(', ') : 'journalctl'
    const answer = ask === undefined ? '' : await ask(`Read ${found.reason}: ${where}? [Y/n] `)
    if (!/^n/i.test(answer)) kept.push(found)
  }
  if (kept.length === 0) {
    const why = 'nothing left to read: keep at least one source (or write one in by hand after init)'
    throw new InitError(InitErrorCodes.ANSWER, why)
  }
  return kept
}

async function apiKind(flags: InitFlags, ask: Ask | undefined): Promise<'sandbox' | 'real'> {
  const isKind: Check = (value) => (value === 'sandbox' || value === 'real' ? undefined : 'expected sandbox or real')
  const question = 'Messaging: the embedded sandbox (nothing leaves this machine) or the real API? sandbox/real'
  const kind = await resolve(ask, { name: 'api', value: flags.api }, question, isKind, 'sandbox')
  return kind === 'real' ? 'real' : 'sandbox'
}

async function apiKey(flags: InitFlags, ask: Ask | undefined): Promise<ApiKeySource> {
  if (flags.apiKeyFile !== undefined && flags.apiKeyEnv !== undefined)
    throw new InitError(InitErrorCodes.ANSWER, '--api-key-file and --api-key-env: give one of them')
  if (flags.apiKeyFile !== undefined) return { kind: 'file', path: flags.apiKeyFile }
  if (flags.apiKeyEnv !== undefined)
    return { kind: 'env', name: flagValue('api-key-env', flags.apiKeyEnv, checkEnvName) }
  const isKeyPlace: Check = (value) => (value.includes('/') ? undefined : checkEnvName(value))
  const question = 'Where the API key is: a file path (with a /) or an environment variable name'
  const place =
    (await resolve(ask, { name: 'api-key-env', value: undefined }, question, isKeyPlace, DEFAULT_KEY_ENV)) ?? ''
  return place.includes('/') ? { kind: 'file', path: place } : { kind: 'env', name: place }
}

async function api(flags: InitFlags, ask: Ask | undefined): Promise<ApiAnswer> {
  if ((await apiKind(flags, ask)) === 'sandbox') return { kind: 'sandbox' }
  const baseUrl = await resolve(ask, { name: 'base-url', value: flags.baseUrl }, 'API base URL', checkUrl, undefined)
  if (baseUrl === undefined)
    throw new InitError(InitErrorCodes.ANSWER, '--api real needs --base-url (the messaging API base URL)')
  const key = await apiKey(flags, ask)
  const missedCallNumber = await resolve(
    ask,
    { name: 'missed-call-number', value: flags.missedCallNumber },
    'The number pages tell people to give a missed call to, to acknowledge',
    checkPhone,
    undefined,
  )
  return { kind: 'real', baseUrl, key, missedCallNumber }
}

export async function gatherAnswers(
  detected: readonly DetectedSource[],
  flags: InitFlags,
  ask: Ask | undefined,
): Promise<InitAnswers> {
  const sources = await keepSources(detected, flags, ask)
  const chosenApi = await api(flags, ask)
  const person =
    (await resolve(
      ask,
      { name: 'person', value: flags.person },
      'Who gets paged (a name)',
      checkName,
      DEFAULT_PERSON,
    )) ?? DEFAULT_PERSON
  const phone = await resolve(
    ask,
    { name: 'phone', value: flags.phone },
    `${person}'s phone number, with its country code (SMS; a missed call from it acknowledges)`,
    checkPhone,
    undefined,
  )
  if (phone === undefined && chosenApi.kind === 'real')
    throw new InitError(InitErrorCodes.ANSWER, `the real API needs ${person}'s number: --phone`)
  const email = await resolve(
    ask,
    { name: 'email', value: flags.email },
    `${person}'s e-mail address`,
    checkEmail,
    undefined,
  )
  const mailFrom =
    flags.mailFrom === undefined ? 'logx-agent@example.com' : flagValue('mail-from', flags.mailFrom, checkEmail)
  return { sources, person, phone, email, mailFrom, api: chosenApi }
}
