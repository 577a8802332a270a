// What of an event the miner groups on, as masked tokens:
//  1. A JSON line: its `msg` (or `message`), after `err.type` when it has one.
//  2. A multi-line event with a stack (its record's `err.stack`, as alerts/trace.ts reads it): the
//     exception type and the top in-app frames (miner-stack.ts), then the message.
//  3. A plain-text line: its message without the head (alerts/text-head.ts finds it for the layouts it
//     knows, then miner-head.ts skips a syslog TAG after them, or what still looks like head fields).
import type { AlertLine } from '../line'
import { messageHeadEnd } from './miner-head'
import type { FormMemo } from './miner-memo'
import { FORM_SEP, maskedForm } from './miner-form'
import { MAX_MESSAGE } from './miner-mask'
import { stackFingerprint } from './miner-stack'

function errorOf(record: Record<string, unknown>): Record<string, unknown> | undefined {
  const err = record.err ?? record.error
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>) : undefined
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The event's masked form (miner-form.ts): its tokens joined by FORM_SEP; `memo`: the source's (miner-memo.ts). */
export function eventForm(line: AlertLine, memo?: FormMemo): string {
  const found = errorOf(line.record)
  const err = found !== undefined && (line.json || line.raw.includes('\n')) ? found : undefined
  const stack = err === undefined ? '' : stringOf(err.stack)
  // What the form is made of: the error type, the message, whether a leading `<*>` goes.
  let type = err === undefined ? '' : stringOf(err.type)
  let message = line.msg
  let dropLeading = false
  // A text trace's message is its exception's (alerts/trace.ts), not the log line's before it.
  if (stack !== '' && !line.json) message = stringOf(err?.message) || firstLine(line.msg)
  else if (stack === '' && !line.json) {
    // A variable before the first word is head the rules above did not know (a host, a stamp).
    // A text event's message is its first line's (agent/events), so it holds no line break.
    type = ''
    dropLeading = true
    message = line.msg.slice(messageHeadEnd(line.raw, line.msg))
  }
  const known = memo?.find(type, message, dropLeading, stack)
  if (known !== undefined) return known
  const form = formOf(type, message, dropLeading, stack)
  memo?.keep(form)
  return form
}

function formOf(type: string, message: string, dropLeading: boolean, stack: string): string {
  const typed = type === '' ? '' : `${type.replaceAll(' ', '_')}:${FORM_SEP}`
  if (stack === '') return typed + maskedForm(message, dropLeading)
  const frames = stackFingerprint(stack).map((frame) => frame.replaceAll(' ', '_'))
  return [typed + maskedForm(message, false), ...frames].join(FORM_SEP)
}

function firstLine(text: string): string {
  const cut = text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) : text
  const end = cut.indexOf('\n')
  return end === -1 ? cut : cut.slice(0, end)
}
