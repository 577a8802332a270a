// printf-style interpolation of the message: %s %d %i %f %o %O %j and %%, with the results of
// pino's formatter (quick-format-unescaped) in every case, its oddities included, since a line
// must read the same after switching: any `%x` uses up an argument, a null for %d is left in
// place, and an object message with arguments is joined with what pino joins.

export type ObjectStringify = (value: unknown) => string | undefined

/** A non-string message followed by arguments: pino writes the message and all but the first argument. */
function joinObjects(first: object, args: readonly unknown[], stringify: ObjectStringify): string {
  const head = stringify(first)
  let out = head === undefined || head === null ? '' : head
  // pino's formatter reads the arguments one place late: args[0] is never written and the last
  // slot (past the end) is written as nothing.
  for (let index = 1; index <= args.length; index++) {
    const encoded = stringify(args[index])
    out += ' ' + (encoded === undefined || encoded === null ? '' : encoded)
  }
  return out
}

/** The text of `%<code>` for one argument, or undefined when pino leaves the placeholder as it is. */
function interpolate(arg: unknown, code: number, stringify: ObjectStringify): string | undefined {
  switch (code) {
    case 115: // s
      return String(arg)
    case 100: // d
    case 102: // f
      return arg == null ? undefined : String(Number(arg))
    case 105: // i
      return arg == null ? undefined : String(Math.floor(Number(arg)))
    case 79: // O
    case 111: // o
    case 106: // j
      if (arg === undefined) return undefined
      if (typeof arg === 'string') return "'" + arg + "'"
      if (typeof arg === 'function') return arg.name || '<anonymous>'
      return String(stringify(arg))
    default:
      return undefined
  }
}

export function formatMessage(template: unknown, args: readonly unknown[], stringify: ObjectStringify): unknown {
  if (typeof template === 'object' && template !== null) {
    return args.length === 0 ? template : joinObjects(template, args, stringify)
  }
  if (typeof template !== 'string' || args.length === 0) return template
  let out = ''
  let argIndex = 0
  let copiedUpTo = -1
  const length = template.length
  for (let i = 0; i < length; i++) {
    if (template.charCodeAt(i) !== 37 /* % */ || i + 1 >= length) continue
    if (copiedUpTo === -1) copiedUpTo = 0
    const code = template.charCodeAt(i + 1)
    if (code === 37 /* %% */) {
      out += template.slice(copiedUpTo, i) + '%'
      copiedUpTo = i + 2
      i++
      continue
    }
    // Every other `%x` uses up an argument, whether or not it writes one.
    const index = argIndex++
    if (index >= args.length) continue
    const replacement = interpolate(args[index], code, stringify)
    if (replacement === undefined) continue
    out += template.slice(copiedUpTo, i) + replacement
    copiedUpTo = i + 2
    i++
  }
  if (copiedUpTo === -1) return template
  return out + template.slice(copiedUpTo)
}
