// Small validators for written options; each names the option in its error.
import { optionError } from './errors'

export type Written = Record<string, unknown>

export function asObject(target: string, value: unknown): Written {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw optionError(target, '(root)', 'expected an object')
  return value as Written
}

export function rejectUnknown(target: string, written: Written, known: ReadonlySet<string>): void {
  for (const key of Object.keys(written)) if (!known.has(key)) throw optionError(target, key, 'unknown option')
}

export function optionalString(target: string, written: Written, key: string): string | undefined {
  const value = written[key]
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '') throw optionError(target, key, 'expected a non-empty string')
  return value
}

export function requiredString(target: string, written: Written, key: string, hint = ''): string {
  const value = optionalString(target, written, key)
  if (value === undefined) throw optionError(target, key, `is required${hint}`)
  return value
}

export function optionalPositive(target: string, written: Written, key: string): number | undefined {
  const value = written[key]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw optionError(target, key, 'expected a positive number')
  return value
}

export function optionalPositiveInteger(target: string, written: Written, key: string): number | undefined {
  const value = written[key]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw optionError(target, key, 'expected a positive integer')
  return value
}

export function stringList(target: string, written: Written, key: string, required: boolean): string[] | undefined {
  const value = written[key]
  if (value === undefined) {
    if (required) throw optionError(target, key, 'is required (a non-empty list)')
    return undefined
  }
  if (!Array.isArray(value) || value.length === 0) throw optionError(target, key, 'expected a non-empty list')
  value.forEach((v, i) => {
    if (typeof v !== 'string' || v === '') throw optionError(target, `${key}[${i}]`, 'expected a non-empty string')
  })
  return value as string[]
}
