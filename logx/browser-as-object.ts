// The browser build's `asObject` form: one pino-like object per call ({ level, time, ...bindings,
// ...obj, msg }), with the message's printf-like placeholders filled in, as the Node logger does.

import type { Shared } from './browser-types.js'

/** The part of the shared settings that shapes the object. */
type ObjectSettings = Pick<Shared, 'levelFormatter' | 'time' | 'messageKey'>

function stringifyArg(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (typeof value === 'function') return value.name || '<anonymous>'
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return '"[Circular]"'
  }
}

/** printf-like: %s %d %i %f %o %O %j %%; arguments without a placeholder are dropped. */
function formatMessage(template: string, args: readonly unknown[]): string {
  if (args.length === 0) return template
  let out = ''
  let next = 0
  let copied = 0
  for (let i = 0; i < template.length - 1; i++) {
    if (template.charCodeAt(i) !== 37) continue
    const kind = template[i + 1] as string
    let replacement: string | undefined
    if (kind === '%') {
      replacement = '%'
    } else if (next < args.length && 'sdifoOj'.includes(kind)) {
      const arg = args[next++]
      if (kind === 's') replacement = String(arg)
      else if (kind === 'd' || kind === 'f') replacement = arg == null ? undefined : String(Number(arg))
      else if (kind === 'i') replacement = arg == null ? undefined : String(Math.floor(Number(arg)))
      else replacement = arg === undefined ? undefined : stringifyArg(arg)
    }
    if (replacement === undefined) continue
    out += template.slice(copied, i) + replacement
    copied = i + 2
    i++
  }
  return copied === 0 ? template : out + template.slice(copied)
}

/** The object one call logs; `args` are already serialized, `bindings` are the logger's merged ones. */
export function toObject(
  settings: ObjectSettings,
  label: string,
  value: number,
  bindings: Record<string, unknown>,
  args: unknown[],
): Record<string, unknown> {
  const out: Record<string, unknown> = settings.levelFormatter
    ? { ...settings.levelFormatter(label, value) }
    : { level: value }
  const time = settings.time()
  if (time !== false && time !== undefined && time !== null) out.time = time
  Object.assign(out, bindings)

  let index = 0
  let fallbackMessage: unknown
  const first = args[0]
  if (first !== null && typeof first === 'object') {
    Object.assign(out, first)
    const err = (first as { err?: unknown }).err
    if (err !== null && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') {
      fallbackMessage = (err as { message: string }).message
    }
    index = 1
  }
  if (index < args.length) {
    const message = args[index]
    out[settings.messageKey] = typeof message === 'string' ? formatMessage(message, args.slice(index + 1)) : message
  } else if (fallbackMessage !== undefined) {
    out[settings.messageKey] = fallbackMessage
  }
  return out
}
