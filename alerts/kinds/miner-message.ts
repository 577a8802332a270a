// What of an event the miner groups on, as masked tokens:
//  1. A JSON line: its `msg` (or `message`), after `err.type` when it has one.
//  2. A multi-line event with a stack (its record's `err.stack`, as alerts/trace.ts reads it): the
//     exception type and the top in-app frames (miner-stack.ts), then the message.
//  3. A plain-text line: its message without the head (alerts/text-head.ts finds it for the layouts it
//     knows, then miner-head.ts skips what still looks like head fields).
import type { AlertLine } from '../line'
import { headEnd } from './miner-head'
import { maskedTokens, MAX_MESSAGE, WILDCARD } from './miner-mask'
import { stackFingerprint } from './miner-stack'

function errorOf(record: Record<string, unknown>): Record<string, unknown> | undefined {
  const err = record.err ?? record.error
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>) : undefined
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

export function eventTokens(line: AlertLine): string[] {
  const err = errorOf(line.record)
  const type = err === undefined ? '' : stringOf(err.type)
  const stack = err === undefined ? '' : stringOf(err.stack)
  if (stack !== '' && (line.json || line.raw.includes('\n'))) {
    const frames = stackFingerprint(stack)
    const message = line.json ? line.msg : stringOf(err?.message) || firstLine(line.msg)
    return [...(type === '' ? [] : [`${type}:`]), ...maskedTokens(message), ...frames]
  }
  if (line.json) return type === '' ? maskedTokens(line.msg) : [`${type}:`, ...maskedTokens(line.msg)]
  const text = firstLine(line.msg === line.raw ? line.raw.slice(headEnd(line.raw)) : line.msg)
  const tokens = maskedTokens(text)
  // A variable before the first word is head the rules above did not know (a host, a stamp).
  return tokens.length > 1 && tokens[0] === WILDCARD ? tokens.slice(1) : tokens
}

function firstLine(text: string): string {
  const cut = text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) : text
  const end = cut.indexOf('\n')
  return end === -1 ? cut : cut.slice(0, end)
}
