// RFC 5424 messages: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA [MSG]`. Pure.
// Rules, in order:
// 1. after `<PRI>` the version is `1` followed by a space; anything else is not RFC 5424 (undefined:
//    the caller tries RFC 3164);
// 2. the six header fields are separated by single spaces; a field that is `-` (NILVALUE) is undefined;
//    a header cut short (fewer than six fields) keeps the fields it has, and the message is empty;
// 3. STRUCTURED-DATA is `-` or one or more `[SD-ID param="value" ...]` elements with no space between
//    them; in a value `\"`, `\\` and `\]` stand for `"`, `\` and `]`, and any other backslash is kept as
//    written (RFC 5424 6.3.3);
// 4. structured data that does not parse (no closing `]`, a parameter without `="`) is not taken apart:
//    structured data is undefined and the text from where it began is the message, so nothing is lost;
// 5. the message is what follows the structured data and one space; a UTF-8 BOM at its start (MSG-UTF8)
//    is dropped;
// 6. an SD-ID seen twice keeps the parameters of both (a later value of the same name wins).

import { plainMessage, type SyslogMessage } from './message'

const SPACE = 32
const NIL = '-'

/** The RFC 5424 message after a PRI ending before `at`, or undefined when the version is not `1 ` (rule 1). */
export function parse5424(text: string, priority: number, at: number): SyslogMessage | undefined {
  if (text.charCodeAt(at) !== 49 /* 1 */ || text.charCodeAt(at + 1) !== SPACE) return undefined
  const message = plainMessage('5424', priority, '')
  // The header is read field by field at `cursor` (module state: the parse is synchronous).
  cursor = at + 2
  message.timestamp = headerField(text)
  message.hostname = headerField(text)
  message.appName = headerField(text)
  message.procId = headerField(text)
  message.msgId = headerField(text)
  if (cursor >= text.length) return message
  readDataAndMessage(text, cursor, message)
  return message
}

let cursor = 0

/** Rule 2: the next header field from `cursor` (undefined past the end or for `-`); `cursor` past its space. */
function headerField(text: string): string | undefined {
  if (cursor >= text.length) return undefined
  let end = text.indexOf(' ', cursor)
  if (end === -1) end = text.length
  const field = nilOrText(text.slice(cursor, end))
  cursor = end + 1
  return field
}

function nilOrText(field: string): string | undefined {
  return field === NIL || field === '' ? undefined : field
}

/** Rules 3-5: the structured data from `at`, then the message. */
function readDataAndMessage(text: string, at: number, message: SyslogMessage): void {
  if (text.charCodeAt(at) === 45 /* - */) {
    message.message = messageText(text, at + 1)
    return
  }
  const data: Record<string, Record<string, string>> = {}
  let cursor = at
  while (text.charCodeAt(cursor) === 91 /* [ */) {
    const end = readElement(text, cursor + 1, data)
    if (end === -1) {
      message.message = stripBom(text.slice(at))
      return
    }
    cursor = end
  }
  if (cursor === at || (cursor < text.length && text.charCodeAt(cursor) !== SPACE)) {
    message.message = stripBom(text.slice(at))
    return
  }
  message.structuredData = data
  message.message = messageText(text, cursor)
}

/** Rule 5: after the structured data comes one space, then the message. */
function messageText(text: string, at: number): string {
  if (at >= text.length) return ''
  return stripBom(text.slice(text.charCodeAt(at) === SPACE ? at + 1 : at))
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** One element after its `[`: its id and parameters into `data`; where it ends, past its `]`, or -1 (rule 4). */
function readElement(text: string, at: number, data: Record<string, Record<string, string>>): number {
  let cursor = at
  while (cursor < text.length && !isNameEnd(text.charCodeAt(cursor))) cursor++
  const id = text.slice(at, cursor)
  if (id === '') return -1
  const params = Object.hasOwn(data, id) ? (data[id] as Record<string, string>) : {}
  while (text.charCodeAt(cursor) === SPACE) {
    const nameStart = cursor + 1
    const equals = text.indexOf('="', nameStart)
    if (equals === -1) return -1
    const name = text.slice(nameStart, equals)
    if (name === '' || /[ \]"]/.test(name)) return -1
    const value = readValue(text, equals + 2)
    if (value === undefined) return -1
    setOwn(params, name, value.text)
    cursor = value.end
  }
  if (text.charCodeAt(cursor) !== 93 /* ] */) return -1
  setOwn(data, id, params)
  return cursor + 1
}

/**
 * A plain object (a null-prototype one is a slow dictionary in V8) whose key `__proto__` is still an own
 * data property, never the prototype.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true })
  else target[key] = value
}

function isNameEnd(code: number): boolean {
  return code === SPACE || code === 93 /* ] */ || code === 61 /* = */ || code === 34 /* " */
}

/** A quoted value from after its opening quote (rule 3): its text unescaped and where it ends, past `"`. */
function readValue(text: string, at: number): { text: string; end: number } | undefined {
  const quote = text.indexOf('"', at)
  if (quote === -1) return undefined
  // Most values have no escapes: one slice, no walk.
  const backslash = text.indexOf('\\', at)
  if (backslash === -1 || backslash > quote) return { text: text.slice(at, quote), end: quote + 1 }
  let value = ''
  let chunkStart = at
  for (let cursor = at; cursor < text.length; cursor++) {
    const code = text.charCodeAt(cursor)
    if (code === 34 /* " */) return { text: value + text.slice(chunkStart, cursor), end: cursor + 1 }
    if (code !== 92 /* \ */) continue
    const next = text.charCodeAt(cursor + 1)
    if (next === 34 || next === 92 || next === 93) {
      value += text.slice(chunkStart, cursor)
      chunkStart = cursor + 1
      cursor++
    }
  }
  return undefined
}
