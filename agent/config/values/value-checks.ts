// Checks on single string values, shared by the shape (so by the YAML config and the transport
// targets' options). Each returns what is wrong, or undefined. Addresses use the messaging API's
// own grammars, the ones its client checks before it sends.
import { compileTemplate, isTimeZone, levelFromName, LEVELS } from '../../../alerts'
import { isChatNumber, isEmailAddress, isPhoneNumber } from '../../messaging/validate'
import type { ConfigSource } from '../load/check-context'
import { suggestion } from '../shape/did-you-mean'
import { parseRedactPath } from './redact-path'
import { parseRegex, isRegexLiteral } from './regex-literal'
export { isLoopbackHost } from '../../loopback-host'

export function checkUrl(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'expected an http(s) URL'
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'expected an http(s) URL'
}

/** `host:port`, `[::1]:port` or `:port`; the port may be 0 (any free port). */
export function parseListen(value: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]*)):(\d{1,5})$/.exec(value)
  if (m === null) return undefined
  const port = Number(m[3])
  if (port > 65_535) return undefined
  return { host: m[1] ?? (m[2] === '' || m[2] === undefined ? '127.0.0.1' : m[2]), port }
}

export function checkListen(value: string): string | undefined {
  return parseListen(value) === undefined ? 'expected host:port, e.g. 127.0.0.1:9464' : undefined
}

export function checkPhone(value: string): string | undefined {
  return isPhoneNumber(value) ? undefined : 'expected a phone number'
}

export function checkChatNumber(value: string): string | undefined {
  return isChatNumber(value) ? undefined : 'expected a number with country prefix like "+919800000001"'
}

export function checkEmail(value: string): string | undefined {
  return isEmailAddress(value) ? undefined : 'expected an e-mail address'
}

export function checkTemplate(value: string): string | undefined {
  try {
    compileTemplate(value, 'template')
    return undefined
  } catch (err) {
    return `invalid template: ${(err as Error).message.replace(/^template: /, '')}`
  }
}

export function checkLevel(value: string): string | undefined {
  return levelFromName(value) === undefined
    ? `expected a level (${Object.keys(LEVELS).join(', ')}) or a number`
    : undefined
}

/** A message pattern: `/re/flags`, or a bare pattern. */
export function checkPattern(value: string): string | undefined {
  const parsed = parseRegex(value, true)
  return parsed.ok ? undefined : parsed.message
}

/** A field matcher's value: `/re/flags` is a pattern; anything else is compared for equality. */
export function checkMatchValue(value: string): string | undefined {
  return isRegexLiteral(value) ? checkPattern(value) : undefined
}

const DOT_PATH = /^[A-Za-z_$][\w$-]*(?:\.[\w$-]+)*$/

/**
 * A field's dot path (`match` and `matchers` keys, `group_by`). The YAML keeps to identifier-like
 * segments, which catches typos; the targets' options always took any path (`@timestamp`, `a/b`,
 * `0`) and still do, so a key a log really has stays addressable there.
 */
export function checkDotPath(value: string, source: ConfigSource = 'yaml'): string | undefined {
  if (source === 'options') return value === '' ? 'expected a dot path like err.type' : undefined
  return DOT_PATH.test(value) ? undefined : 'expected a dot path like err.type'
}

/**
 * A redact path in the logger's grammar (dots, quoted brackets, indices, `*`), so the paths of an
 * app's `redact` work as they are in its alert targets and the agent's YAML (redact-path.ts).
 */
export function redactPathOf(value: string): readonly string[] {
  return parseRedactPath(value)
}

export function checkRedactPath(value: string): string | undefined {
  try {
    redactPathOf(value)
    return undefined
  } catch (err) {
    // The parser says what is wrong; the caller names the place.
    return (err as Error).message
  }
}

const NAME = /^[A-Za-z0-9][\w.-]*$/

export function checkName(value: string): string | undefined {
  return NAME.test(value) ? undefined : 'expected a name of letters, digits, ".", "_" and "-"'
}

/** `oncall: ops` or `oncall: ops/secondary`: a schedule's name, and a layer's. */
export function checkOncallRef(value: string): string | undefined {
  const parts = value.split('/')
  return parts.length <= 2 && parts.every((part) => NAME.test(part))
    ? undefined
    : 'expected a schedule name, or schedule/layer like "ops/secondary"'
}

export function checkDate(value: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value))
    ? undefined
    : 'expected an ISO date like 2026-01-31T18:00:00Z'
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

/** The acknowledgement hint: text whose only placeholder is `{{number}}` (the missed-call number). */
export function checkHint(value: string): string | undefined {
  for (const [, name] of value.matchAll(PLACEHOLDER)) {
    if (name !== 'number')
      return `unknown placeholder {{${name ?? ''}}} in ${JSON.stringify(value)} (the hint takes only {{number}})`
  }
  return undefined
}

/** Whether the hint names the number (so it needs one). */
export const hintNamesNumber = (hint: string): boolean => [...hint.matchAll(PLACEHOLDER)].length > 0

/** The hint with `{{number}}` replaced. */
export const fillHint = (hint: string, number: string): string => hint.replace(PLACEHOLDER, number)

/**
 * Current IANA names that this runtime's ICU lists under their former ones (`Asia/Calcutta`), so
 * they are offered as suggestions too; each is still checked against Intl before it is.
 */
const RENAMED_ZONES = [
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Ho_Chi_Minh',
  'Asia/Yangon',
  'Europe/Kyiv',
  'America/Nuuk',
  'Atlantic/Faroe',
  'Pacific/Chuuk',
  'Pacific/Pohnpei',
  'Pacific/Kanton',
  'Africa/Asmara',
  'America/Argentina/Buenos_Aires',
  'America/Indiana/Indianapolis',
  'America/Kentucky/Louisville',
  'America/Atikokan',
]

let knownZones: string[] | undefined

function zoneNames(): string[] {
  knownZones ??= [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone'), ...RENAMED_ZONES.filter(isTimeZone)])]
  return knownZones
}

/**
 * An IANA time zone name (`Asia/Kolkata`, `Europe/Berlin`, `UTC`; former names like `Asia/Calcutta`
 * too): exactly the zones the alerts' wall-clock arithmetic (Intl) can run on.
 */
export function checkTimeZone(value: string): string | undefined {
  return isTimeZone(value) ? undefined : `unknown time zone ${JSON.stringify(value)}${suggestion(value, zoneNames())}`
}
