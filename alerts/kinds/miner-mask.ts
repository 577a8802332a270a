// The rules that find the variable parts of a message's tokens, the miner's first step (miner-form.ts
// applies them in one pass).
//
// Rules, in order (each token is a run of non-blank characters; a token is split further at the
// punctuation that joins a name to its value, so `uid=0`, `port:8080`, `(size 12)` keep the name):
//  1. The message is cut to MAX_MESSAGE characters and MAX_TOKENS tokens first: a 10 MB line costs
//     no more than a long one, and no pattern here looks back, so no input is super-linear.
//  2. A part holding a digit is a variable: numbers, hex, UUIDs, IPs and ports, durations (`12ms`),
//     versions, block and request ids (`blk_-123`, `req-9f..`), dates and times.
//  2b. A host name and its port (`www.example.com:443`, `localhost:8080`) are one variable, the name
//     too: a lower-case DNS name of two labels or more whose last is not a source file's extension,
//     then `:` and digits; a `,` or `;` after it stays. A place in code keeps its name: `main.go:12`
//     by its extension, `com.x.Foo.bar:12` (a Java frame) by its capitals.
//  3. A part that is a path (`/var/log/x`, `C:\Windows\x`, `./a/b`), a URL (`scheme://...`) or an
//     e-mail address (`a@b.c`) is a variable.
//  4. A quoted string (`"..."` or `'...'`, opening a token or after a joiner, blanks inside and all,
//     at most MAX_QUOTED characters) is one place of the template, its words masked by these rules:
//     `"GET /v2/x HTTP/1.1"` is `"GET <*>"`, and `"View Lock"` a word the grouping may find varies.
//  5. Any other part is a word of the template; words that vary are left to the grouping.
//  6. A token left with no letter or opening bracket outside its `<*>` (`<*>,<*>`, `<*>]`) is one `<*>`, and
//     runs of `<*>` tokens are one `<*>`: a variable of a varying number of words (a quoted list,
//     a path with spaces) gives the template one shape.
//  7. A month or weekday name next to a variable is part of a date (`Fri Jun 24 18:55:11 2005`).
//  8. A unit of time or size after a variable is part of the quantity (`12 ms`, `<1 sec`, `3 minutes`,
//     `512 MB`), as it is written joined (`12ms`, `512MB`): the same duration written `00:01` or
//     `<1 sec` gives the template one shape.
//  9. A quantity restated with its unit in brackets right after one (`1190 bytes (1.16 KB)`, as some
//     tools write past 1 KB) is part of it: the line with and without the restatement has one shape.
export const MAX_MESSAGE = 4096
export const MAX_TOKENS = 96
export const WILDCARD = '<*>'
export const MAX_QUOTED = 256
/** A blank inside a quoted token, so that the token stays one; shown as a blank in a template. */
export const QUOTED_BLANK = '\u0001'

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isBlank = (c: number): boolean => c <= 32

/** Punctuation that separates a name from its value inside one token. */
export function isJoiner(c: number): boolean {
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
  let slash = false
  let dots = 0
  for (let i = from; i < to; i++) {
    const c = token.charCodeAt(i)
    if (c === 47) slash = true
    else if (c === 46) dots++
    if (c === 64 /* @ */ && i > from && i < to - 1) return true
    if (c === 58 && token.charCodeAt(i + 1) === 47 && token.charCodeAt(i + 2) === 47) return true
  }
  return slash && dots > 0
}

// Rule 2b: what ends a source file's name, so `Main.java:12` is not read as a host and its port.
const SOURCE_EXTENSIONS = new Set(
  (
    'java kt kts scala groovy clj py pyx rb go rs js mjs cjs jsx ts tsx vue c h cc cpp cxx hpp hh m mm ' +
    'swift cs fs vb php pl pm sh bash lua ex exs erl hrl hs ml dart r jl cr nim zig sql jsp aspx cshtml'
  ).split(' '),
)

/** Rule 2b: `name.domain:port` or `localhost:port`, with an optional `,` or `;` after it. */
function isHostPort(token: string): boolean {
  let end = token.length
  const last = token.charCodeAt(end - 1)
  if (last === 44 || last === 59) end--
  const colon = token.lastIndexOf(':', end - 1)
  if (colon <= 0 || colon === end - 1) return false
  for (let i = colon + 1; i < end; i++) if (!isDigit(token.charCodeAt(i))) return false
  if (colon === 9 && token.startsWith('localhost')) return true
  let dot = -1
  let labelStart = 0
  for (let i = 0; i < colon; i++) {
    const c = token.charCodeAt(i)
    if (c === 46) {
      if (i === labelStart) return false
      dot = i
      labelStart = i + 1
    } else if (!isDigit(c) && c !== 45 && c !== 95 && !(c >= 97 && c <= 122)) return false
  }
  return dot !== -1 && labelStart < colon && !SOURCE_EXTENSIONS.has(token.slice(dot + 1, colon).toLowerCase())
}

/** Rule 2 on one part of a token (`from`..`to`, no joiner inside but quotes). */
function isVariablePart(token: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isDigit(token.charCodeAt(i))) return true
  return false
}

/** Rule 2's MAC and IPv6 addresses: hex digits in groups joined by `:` (or `-`), a digit among them. */
function isHexGroups(token: string): boolean {
  let separators = 0
  let digit = false
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i)
    if (c === 58 || c === 45) separators++
    else if (isDigit(c)) digit = true
    else if (!((c | 0x20) >= 97 && (c | 0x20) <= 102)) return false
  }
  return digit && separators >= 2
}

/** One whitespace token with its variable parts masked (rules 2-4). */
export function maskToken(token: string): string {
  if (isPathLike(token, 0, token.length) || isHexGroups(token)) return WILDCARD
  if (isHostPort(token)) {
    const last = token.charCodeAt(token.length - 1)
    return last === 44 || last === 59 ? WILDCARD + token.slice(-1) : WILDCARD
  }
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
  return changed ? (hasLetterOutsideWildcards(out) ? out : WILDCARD) : token
}

/** Rule 6's test: `<*>,<*>` is one variable; `uid=<*>` keeps its name, `(<*>)` its brackets. */
function hasLetterOutsideWildcards(masked: string): boolean {
  for (let i = 0; i < masked.length; i++) {
    if (masked.startsWith(WILDCARD, i)) {
      i += WILDCARD.length - 1
      continue
    }
    const c = masked.charCodeAt(i)
    const lower = c | 0x20
    if ((lower >= 97 && lower <= 122) || c === 40 || c === 91 || c === 123) return true
  }
  return false
}

/** Rule 4: where a quote opening at `at` closes, when it opens a quoted string there; else -1. */
export function quoteEnd(text: string, at: number, tokenStart: number): number {
  const quote = text.charCodeAt(at)
  if (quote !== 34 && quote !== 39) return -1
  if (at !== tokenStart && !isJoiner(text.charCodeAt(at - 1))) return -1
  const end = text.indexOf(quote === 34 ? '"' : "'", at + 1)
  if (end === -1 || end - at > MAX_QUOTED) return -1
  // An apostrophe closes a quote only before a blank, a joiner or the end (`'a b'`, not `don't`).
  const after = text.charCodeAt(end + 1)
  return quote === 39 && end + 1 < text.length && !isBlank(after) && !isJoiner(after) ? -1 : end
}

/** A quoted string as one token: the quotes kept, its words masked one by one. */
function maskQuoted(quoted: string): string {
  const words = quoted.slice(1, -1).split(' ')
  let out = ''
  for (const word of words) {
    const masked = word === '' ? '' : maskToken(word)
    if (masked === WILDCARD && out.endsWith(WILDCARD)) continue
    out += out === '' ? masked : `${QUOTED_BLANK}${masked}`
  }
  return `${quoted[0] as string}${out}${quoted[quoted.length - 1] as string}`
}

/** A token holding quoted strings (rule 4): each masked as one place, the rest by maskToken. */
export function maskQuotedToken(text: string, start: number, end: number): string {
  let out = ''
  let from = start
  for (let i = start; i < end; i++) {
    const close = quoteEnd(text, i, start)
    if (close === -1) continue
    out += `${text.slice(from, i)}${maskQuoted(text.slice(i, close + 1))}`
    from = close + 1
    i = close
  }
  return from < end ? `${out}${maskToken(text.slice(from, end))}` : out
}
