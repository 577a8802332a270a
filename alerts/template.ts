// A tiny placeholder syntax: `{{msg}}`, `{{err.type}}`, `{{count}}`. Compiled once into literal and
// lookup parts; rendering only concatenates. Nothing is evaluated, and an inserted value is never
// scanned again, so a log line containing "{{secret}}" stays that literal text.
import { compilePath, type PathGetter } from './dot-path'
import { AlertsError, AlertsErrorCodes } from './errors'

type Part = { literal: string } | { get: PathGetter }

export interface Template {
  readonly source: string
  render(vars: TemplateVars): string
}

/** Values looked up by placeholders: first `vars`, then the line's record. */
export interface TemplateVars {
  vars: Readonly<Record<string, unknown>>
  record?: Readonly<Record<string, unknown>>
}

const PATH = /^[A-Za-z_$][\w$-]*(?:\.[\w$-]+)*$/

export function compileTemplate(source: string, path: string): Template {
  const parts: Part[] = []
  let at = 0
  while (at < source.length) {
    const open = source.indexOf('{{', at)
    if (open === -1) {
      parts.push({ literal: source.slice(at) })
      break
    }
    if (open > at) parts.push({ literal: source.slice(at, open) })
    const close = source.indexOf('}}', open + 2)
    if (close === -1) {
      throw new AlertsError(AlertsErrorCodes.INVALID_TEMPLATE, path, `unclosed "{{" at offset ${open}`)
    }
    const name = source.slice(open + 2, close).trim()
    if (!PATH.test(name)) {
      throw new AlertsError(
        AlertsErrorCodes.INVALID_TEMPLATE,
        path,
        `placeholder at offset ${open} must be a field path like {{msg}} or {{err.type}}, got "{{${name}}}"`,
      )
    }
    parts.push({ get: compilePath(name) })
    at = close + 2
  }
  return {
    source,
    render({ vars, record }) {
      let out = ''
      for (const part of parts) {
        if ('literal' in part) {
          out += part.literal
          continue
        }
        let value = part.get(vars)
        if (value === undefined && record !== undefined) value = part.get(record)
        out += stringify(value)
      }
      return out
    },
  }
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    return '[unserializable]'
  }
}
