// printf-style interpolation of the message: %s %d %i %f %o %O %j and %%.
// Arguments without a placeholder are dropped, as in pino since v6.

export type ObjectStringify = (value: unknown) => string | undefined

export function formatMessage(template: unknown, args: readonly unknown[], stringify: ObjectStringify): unknown {
  if (typeof template !== 'string') {
    if (typeof template === 'object' && template !== null && args.length > 0) {
      // A non-string first argument with more arguments after it: join them all, like console.log does.
      let out = safeStringify(template, stringify)
      for (const arg of args) out += ' ' + safeStringify(arg, stringify)
      return out
    }
    return template
  }
  const argCount = args.length
  if (argCount === 0) return template

  let out = ''
  let argIndex = 0
  let copiedUpTo = 0
  const length = template.length
  for (let i = 0; i < length - 1; i++) {
    if (template.charCodeAt(i) !== 37 /* % */) continue
    const code = template.charCodeAt(i + 1)
    let replacement: string | undefined
    if (code === 37 /* %% */) {
      replacement = '%'
    } else if (argIndex < argCount) {
      const arg = args[argIndex]
      switch (code) {
        case 100: // d
        case 102: // f
          if (arg != null) replacement = String(Number(arg))
          break
        case 105: // i
          if (arg != null) replacement = String(Math.floor(Number(arg)))
          break
        case 115: // s
          replacement = String(arg)
          break
        case 79: // O
        case 111: // o
        case 106: // j
          if (arg === undefined) break
          if (typeof arg === 'string') replacement = "'" + arg + "'"
          else if (typeof arg === 'function') replacement = arg.name || '<anonymous>'
          else replacement = safeStringify(arg, stringify)
          break
        default:
          // pino's formatter lets any other `%x` consume an argument; keep that so lines match.
          argIndex++
          continue
      }
      // A placeholder consumes its argument even when the argument is unusable (null for %d).
      argIndex++
    } else {
      continue
    }
    if (replacement === undefined) continue
    out += template.slice(copiedUpTo, i) + replacement
    copiedUpTo = i + 2
    i++
  }
  if (copiedUpTo === 0) return template
  return out + template.slice(copiedUpTo)
}

function safeStringify(value: unknown, stringify: ObjectStringify): string {
  const encoded = stringify(value)
  return encoded === undefined ? String(value) : encoded
}
