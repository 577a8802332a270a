// A message cut into tokens with its variable parts as `<*>`, the miner's first step.
//
// Rules, in order (each token is a run of non-blank characters; a token is split further at the
// punctuation that joins a name to its value, so `uid=0`, `port:8080`, `(size 12)` keep the name):
//  1. The message is cut to MAX_MESSAGE characters and MAX_TOKENS tokens first: a 10 MB line costs
//     no more than a long one, and no pattern here looks back, so no input is super-linear.
//  2. A part holding a digit is a variable: numbers, hex, UUIDs, IPs and ports, durations (`12ms`),
//     versions, block and request ids (`blk_-123`, `req-9f..`), dates and times.
//  3. A part that is a path (`/var/log/x`, `C:\Windows\x`, `./a/b`), a URL (`scheme://...`) or an
//     e-mail address (`a@b.c`) is a variable.
//  4. A quoted string (`"..."` or `'...'`, within one token) is a variable.
//  5. Any other part is a word of the template; words that vary are left to the grouping.
//  6. Runs of `<*>` tokens are one `<*>`: a variable of a varying number of words (a quoted list,
//     a path with spaces) gives the template one shape.
export const MAX_MESSAGE = 4096
export const MAX_TOKENS = 96
export const WILDCARD = '<*>'

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isBlank = (c: number): boolean => c <= 32

/** Punctuation that separates a name from its value inside one token. */
function isJoiner(c: number): boolean {
  // = : , ; ( ) [ ] { } < > |
  return (
    c === 61 ||
    c === 58 ||
    c === 44 ||
    c === 59 ||
    c === 40 ||
    c === 41 ||
    c === 91 ||
    c === 93 ||
    c === 123 ||
    c === 125 ||
    c === 60 ||
    c === 62 ||
    c === 124
  )
}

/** Rule 3: a path, a URL or an e-mail address, judged by its first characters and what it holds. */
function isPathLike(token: string, from: number, to: number): boolean {
  const first = token.charCodeAt(from)
  const second = token.charCodeAt(from + 1)
  if (first === 47 /* / */ && to - from > 1) return true
  if (first === 46 /* . */ && second === 47) return true
  if (second === 58 /* : */ && token.charCodeAt(from + 2) === 92 /* \ */) return true
  for (let i = from; i < to; i++) {
    const c = token.charCodeAt(i)
    if (c === 64 /* @ */ && i > from && i < to - 1) return true
    if (c === 58 && token.charCodeAt(i + 1) === 47 && token.charCodeAt(i + 2) === 47) return true
  }
  return false
}

/** Rules 2 and 4 on one part of a token (`from`..`to`, no joiner inside but quotes). */
function isVariablePart(token: string, from: number, to: number): boolean {
  const first = token.charCodeAt(from)
  if ((first === 34 || first === 39) && to - from > 1 && token.charCodeAt(to - 1) === first) return true
  for (let i = from; i < to; i++) if (isDigit(token.charCodeAt(i))) return true
  return false
}

/** One whitespace token with its variable parts masked (rules 2-4). */
export function maskToken(token: string): string {
  if (isPathLike(token, 0, token.length)) return WILDCARD
  let out = ''
  let partStart = 0
  let changed = false
  for (let i = 0; i <= token.length; i++) {
    const c = i < token.length ? token.charCodeAt(i) : 0
    if (i < token.length && !isJoiner(c)) continue
    if (i > partStart) {
      if (isVariablePart(token, partStart, i) || isPathLike(token, partStart, i)) {
        out += WILDCARD
        changed = true
      } else {
        out += token.slice(partStart, i)
      }
    }
    if (i < token.length) out += token[i]
    partStart = i + 1
  }
  return changed ? out : token
}

/** The message's tokens, cut (rule 1) and masked (rules 2-6). */
export function maskedTokens(message: string): string[] {
  const text = message.length > MAX_MESSAGE ? message.slice(0, MAX_MESSAGE) : message
  const tokens: string[] = []
  let start = -1
  for (let i = 0; i <= text.length && tokens.length < MAX_TOKENS; i++) {
    const blank = i === text.length || isBlank(text.charCodeAt(i))
    if (!blank) {
      if (start === -1) start = i
      continue
    }
    if (start === -1) continue
    const token = maskToken(text.slice(start, i))
    start = -1
    if (token === WILDCARD && tokens[tokens.length - 1] === WILDCARD) continue
    tokens.push(token)
  }
  return tokens
}
