// The error behind a line, as one short text for pages: "TypeError: connection refused". Read from
// `err` (pino's serializer writes `{ type, message, stack }`; `name` as Error objects have it), else
// from `error` (an object of the same shape, or a plain string). A page already shows the line's
// message, so when the error's message is that message only the type is added, and not even that
// when the type is the generic `Error` (it would say nothing the page does not).

/** How much of a cause is looked at: more than any page shows. */
const CAUSE_SCAN = 4096

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

function parts(value: unknown): { type: string | undefined; message: string | undefined } | undefined {
  if (typeof value === 'string')
    return text(value) === undefined ? undefined : { type: undefined, message: text(value) }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const err = value as Record<string, unknown>
  const type = Object.hasOwn(err, 'type') ? text(err.type) : Object.hasOwn(err, 'name') ? text(err.name) : undefined
  const message = Object.hasOwn(err, 'message') ? text(err.message) : undefined
  return type === undefined && message === undefined ? undefined : { type, message }
}

/** The cause of the line whose record and message these are, on one line; '' when it names none. */
export function causeOf(record: Readonly<Record<string, unknown>>, msg: string): string {
  const found =
    (Object.hasOwn(record, 'err') ? parts(record.err) : undefined) ??
    (Object.hasOwn(record, 'error') ? parts(record.error) : undefined)
  if (found === undefined) return ''
  const message = found.message === msg.trim() ? undefined : found.message
  if (message === undefined && found.type === 'Error') return ''
  const cause =
    found.type !== undefined && message !== undefined ? `${found.type}: ${message}` : (found.type ?? message ?? '')
  // Multi-line messages (a stack pasted into `message`) would break an SMS into pieces. A line may
  // be megabytes long: what a page can show is far shorter (the renderer cuts it to its limit).
  return (cause.length > CAUSE_SCAN ? cause.slice(0, CAUSE_SCAN) : cause).replace(/\s+/g, ' ')
}
